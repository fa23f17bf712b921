import { createRoute, z } from '@hono/zod-openapi';
import {
  apiKeySummarySchema,
  providerAvailabilitySchema,
  providerIdSchema,
  putApiKeySchema,
} from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Keys'];
const providerParam = z.object({ provider: providerIdSchema });

export const listApiKeysRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/api-keys',
  tags,
  summary: "The signed-in user's provider keys, masked",
  description:
    "One entry per provider: the user's own key (`source: user`), else the admin default key granted to them (`source: default`).",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(z.array(apiKeySummarySchema), 'One entry per provider with a key'),
    401: errorResponse('Not signed in'),
  },
});

export const apiKeyAvailabilityRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/api-keys/availability',
  tags,
  summary: 'For each of the eight providers: enabled or not, and which key a call would use',
  description:
    '`source` is what resolution picks (user, then a granted default, then the system key); `none` is a provider that needs no key (Ollama); null means no key is available. Only masked hints are returned.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(z.array(providerAvailabilitySchema), 'All eight providers, catalogue order'),
    401: errorResponse('Not signed in'),
  },
});

export const putApiKeyRoute = createRoute({
  'x-access': 'user',
  method: 'put',
  path: '/api-keys/{provider}',
  tags,
  summary: 'Save (or replace) the key of one provider; stored encrypted',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    params: providerParam,
    body: { content: { 'application/json': { schema: putApiKeySchema } }, required: true },
  },
  responses: {
    200: jsonContent(apiKeySummarySchema, 'The saved key, masked'),
    400: errorResponse('Empty key, wrong format or unknown provider'),
    401: errorResponse('Not signed in'),
  },
});

export const deleteApiKeyRoute = createRoute({
  'x-access': 'user',
  method: 'delete',
  path: '/api-keys/{provider}',
  tags,
  summary: 'Remove the key of one provider',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: providerParam },
  responses: {
    204: { description: 'Removed' },
    400: errorResponse('Unknown provider'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No key saved for this provider'),
  },
});
