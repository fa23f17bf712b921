import { createRoute } from '@hono/zod-openapi';
import { listTestCasesQuerySchema, testCaseListSchema } from '@chorus/shared/api/scenarios';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const listTestCasesRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/test-cases',
  tags: ['Scenarios'],
  summary:
    'The signed-in user’s test cases, newest first; `unfiled=true`: only those no test set holds',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { query: listTestCasesQuerySchema },
  responses: {
    200: jsonContent(testCaseListSchema, 'The newest test cases, at most `limit`'),
    400: errorResponse('Invalid query'),
    401: errorResponse('Not signed in'),
  },
});
