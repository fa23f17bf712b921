import { createRoute } from '@hono/zod-openapi';
import { chatRequestSchema } from '@chorus/shared/api/conversations';
import { errorResponse, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const chatRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/chat',
  tags: ['Chat'],
  summary: 'Stream the reply to a new message (AI SDK UI message stream over SSE)',
  description:
    'The server holds the history. The user message is stored before the provider is called; the reply is stored as it streams, and kept with status `interrupted` if the stream is stopped, fails or the server stops. `regenerate` answers the last user message again; `edit_of` replaces a user message and everything after it.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: chatRequestSchema } }, required: true },
  },
  responses: {
    200: {
      description: 'UI message stream (text/event-stream)',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    400: errorResponse('Invalid input, nothing to regenerate, or no API key for the provider'),
    401: errorResponse('Not signed in'),
    403: errorResponse(
      'Refused by the plan (`quota:exceeded`, `quota:provider_not_allowed`, `quota:model_not_allowed`)',
    ),
    404: errorResponse('No such conversation or message'),
  },
});
