import { createRoute } from '@hono/zod-openapi';
import { testApiKeyResultSchema, testApiKeySchema } from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const testApiKeyRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/test-api-key',
  tags: ['Keys'],
  summary: 'Test a key against its provider',
  description:
    "Asks the provider itself (model list, a 5-token chat, or a generate call, per provider) and answers whether the key works, with a message to show. Gives up after 15 s. The key is not stored. With `stored: true` (and no `apiKey`) it tests the caller's own saved key for the provider, opened on the server and never returned. Ollama without a key: says none is needed and whether its server answers.",
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: testApiKeySchema } }, required: true },
  },
  responses: {
    200: jsonContent(testApiKeyResultSchema, '`valid` and the message to show'),
    400: errorResponse('Unknown provider, or both a key and stored: true'),
    401: errorResponse('Not signed in'),
    404: errorResponse('stored: true, but the caller has no key saved for the provider'),
  },
});
