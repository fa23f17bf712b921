import { createRoute } from '@hono/zod-openapi';
import { adminKeyAvailabilitySchema, providerRequestSchema } from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const getDefaultApiKeyRoute = createRoute({
  method: 'post',
  path: '/get-default-api-key',
  tags: ['Keys'],
  summary: 'Whether an admin default key granted to the user serves the provider, and its hint',
  description:
    '`api_key` is the masked hint (such as `sk-…a1b2`), never the key. A disabled provider answers `available: false`.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: providerRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(adminKeyAvailabilitySchema, 'Availability and masked hint'),
    400: errorResponse('Unknown provider'),
    401: errorResponse('Not signed in'),
  },
});
