import { createRoute } from '@hono/zod-openapi';
import { copySystemKeysResponseSchema } from '@chorus/shared/api/rpc';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const copySystemApiKeysRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/copy-system-api-keys',
  tags: ['Keys'],
  summary: 'Grant the signed-in user the admin default keys, by reference',
  description:
    "Called once after sign-up. No key is copied: the user is granted each admin default key, so rotating or removing it reaches every grantee at once. The user's own keys still come first. Idempotent. Returns the providers newly granted (none when no default keys exist). Keys are never returned.",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(copySystemKeysResponseSchema, 'Providers granted a key'),
    401: errorResponse('Not signed in'),
  },
});
