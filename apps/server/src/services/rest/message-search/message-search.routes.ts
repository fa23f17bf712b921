import { createRoute } from '@hono/zod-openapi';
import { messageSearchQuerySchema, messageSearchResultSchema } from '@chorus/shared/api/search';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const searchMessagesRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/messages/search',
  tags: ['Conversations'],
  summary: 'Search the text of the signed-in user’s messages, newest first',
  description:
    'Finds messages holding every word of `q` (letters and digits; each word also matches as the start of a longer one, in any language). Other characters only separate words; a query without any word answers no hits. Each hit names its conversation and carries a snippet whose matches sit between the control characters U+0002 and U+0003.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { query: messageSearchQuerySchema },
  responses: {
    200: jsonContent(messageSearchResultSchema, 'The matching messages, newest first'),
    400: errorResponse('Empty or too long query, or a bad limit'),
    401: errorResponse('Authentication required'),
  },
});
