import { createRoute } from '@hono/zod-openapi';
import { copySystemKeysResponseSchema } from '@chorus/shared/api/rpc';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const copySystemApiKeysRoute = createRoute({
  method: 'post',
  path: '/copy-system-api-keys',
  tags: ['Keys'],
  summary: 'Give the signed-in user the admin default key of each provider they have no key for',
  description:
    'Called once after sign-up. Idempotent: keys the user already has are kept. Returns the providers that were granted a key (none when no default keys exist). Keys are never returned.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(copySystemKeysResponseSchema, 'Providers granted a key'),
    401: errorResponse('Not signed in'),
  },
});
