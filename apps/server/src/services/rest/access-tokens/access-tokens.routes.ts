import { createRoute, z } from '@hono/zod-openapi';
import {
  accessTokenListSchema,
  createAccessTokenSchema,
  createdAccessTokenSchema,
} from '@chorus/shared/api/test-runs';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

/** Tokens are made, listed and revoked with the cookie session only, never with a token. */
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Test runner'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};
const notSignedIn = errorResponse(
  'Not signed in; an access token is refused here (`access_tokens:wrong_scope`)',
);

export const listAccessTokensRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/access-tokens',
  summary: 'Your live personal access tokens, newest first',
  description: 'Each with its hint (first characters); the token itself is never shown again.',
  responses: {
    200: jsonContent(accessTokenListSchema, 'Your tokens that are neither revoked nor expired'),
    401: notSignedIn,
  },
});

export const createAccessTokenRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/access-tokens',
  summary: 'Make a personal access token for CI',
  description:
    'Scoped to test runs: it starts, reads and cancels runs (`/functions/v1/test-run`) and lists test sets, sent as `Authorization: Bearer chorus_pat_…`. The answer is the only time the token is shown; only its SHA-256 is stored.',
  request: {
    body: { content: { 'application/json': { schema: createAccessTokenSchema } }, required: true },
  },
  responses: {
    201: jsonContent(createdAccessTokenSchema, 'The new token, shown this once'),
    400: errorResponse('Invalid fields'),
    401: notSignedIn,
    409: errorResponse('As many live tokens as one may hold (`access_tokens:too_many`)'),
  },
});

export const revokeAccessTokenRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/access-tokens/{id}',
  summary: 'Revoke a personal access token',
  description: 'It stops working at once.',
  request: { params: z.object({ id: z.string().max(100) }) },
  responses: {
    204: { description: 'Revoked' },
    401: notSignedIn,
    404: errorResponse('No such live token of yours (`access_tokens:not_found`)'),
  },
});
