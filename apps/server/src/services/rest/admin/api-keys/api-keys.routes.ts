import { createRoute, z } from '@hono/zod-openapi';
import {
  adminApiKeySummarySchema,
  adminApiKeysResponseSchema,
  adminKeyKindSchema,
  patchProviderSchema,
  providerEnabledSchema,
  putAdminApiKeySchema,
} from '@chorus/shared/api/admin-keys';
import { providerIdSchema } from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

const tags = ['Admin'];
const keyParams = z.object({ kind: adminKeyKindSchema, provider: providerIdSchema });
const refusals = {
  401: errorResponse('Not signed in'),
  403: errorResponse('Not an admin'),
};

export const listAdminApiKeysRoute = createRoute({
  method: 'get',
  path: '/admin/api-keys',
  tags,
  summary: 'The system and default keys (masked) and which providers are enabled (admins only)',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  responses: {
    200: jsonContent(adminApiKeysResponseSchema, 'Masked keys, and all eight providers'),
    ...refusals,
  },
});

export const putAdminApiKeyRoute = createRoute({
  method: 'put',
  path: '/admin/api-keys/{kind}/{provider}',
  tags,
  summary: 'Set or rotate a system or default key; stored encrypted, written to the audit log',
  description:
    'A `system` key serves every user of an enabled provider who has no key of their own. A `default` key serves the users it was granted to (copy-system-api-keys). Rotating a key reaches every user at once.',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  request: {
    params: keyParams,
    body: { content: { 'application/json': { schema: putAdminApiKeySchema } }, required: true },
  },
  responses: {
    200: jsonContent(adminApiKeySummarySchema, 'The saved key, masked'),
    400: errorResponse('Empty key, wrong format, unknown kind or provider'),
    ...refusals,
  },
});

export const deleteAdminApiKeyRoute = createRoute({
  method: 'delete',
  path: '/admin/api-keys/{kind}/{provider}',
  tags,
  summary: 'Remove a system or default key (and every grant of it); written to the audit log',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  request: { params: keyParams },
  responses: {
    204: { description: 'Removed' },
    400: errorResponse('Unknown kind or provider'),
    ...refusals,
    404: errorResponse('No such key'),
  },
});

export const patchProviderRoute = createRoute({
  method: 'patch',
  path: '/admin/providers/{provider}',
  tags,
  summary: 'Enable or disable a provider for everyone; written to the audit log',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  request: {
    params: z.object({ provider: providerIdSchema }),
    body: { content: { 'application/json': { schema: patchProviderSchema } }, required: true },
  },
  responses: {
    200: jsonContent(providerEnabledSchema, 'The provider and its new state'),
    400: errorResponse('Unknown provider or malformed body'),
    ...refusals,
  },
});
