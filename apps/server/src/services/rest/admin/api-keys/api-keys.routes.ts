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
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

const keyParams = z.object({ kind: adminKeyKindSchema, provider: providerIdSchema });

export const listAdminApiKeysRoute = createRoute({
  method: 'get',
  path: '/admin/api-keys',
  summary: 'The system and default keys (masked) and which providers are enabled (admins only)',
  ...adminOnly,
  responses: {
    200: jsonContent(adminApiKeysResponseSchema, 'Masked keys, and all eight providers'),
    ...adminRefusals,
  },
});

export const putAdminApiKeyRoute = createRoute({
  method: 'put',
  path: '/admin/api-keys/{kind}/{provider}',
  summary: 'Set or rotate a system or default key; stored encrypted, written to the audit log',
  description:
    'A `system` key serves every user of an enabled provider who has no key of their own. A `default` key serves the users it was granted to (copy-system-api-keys). Rotating a key reaches every user at once.',
  ...adminOnly,
  request: {
    params: keyParams,
    body: { content: { 'application/json': { schema: putAdminApiKeySchema } }, required: true },
  },
  responses: {
    200: jsonContent(adminApiKeySummarySchema, 'The saved key, masked'),
    400: errorResponse('Empty key, wrong format, unknown kind or provider'),
    ...adminRefusals,
  },
});

export const deleteAdminApiKeyRoute = createRoute({
  method: 'delete',
  path: '/admin/api-keys/{kind}/{provider}',
  summary: 'Remove a system or default key (and every grant of it); written to the audit log',
  ...adminOnly,
  request: { params: keyParams },
  responses: {
    204: { description: 'Removed' },
    400: errorResponse('Unknown kind or provider'),
    ...adminRefusals,
    404: errorResponse('No such key'),
  },
});

export const patchProviderRoute = createRoute({
  method: 'patch',
  path: '/admin/providers/{provider}',
  summary: 'Enable or disable a provider for everyone; written to the audit log',
  ...adminOnly,
  request: {
    params: z.object({ provider: providerIdSchema }),
    body: { content: { 'application/json': { schema: patchProviderSchema } }, required: true },
  },
  responses: {
    200: jsonContent(providerEnabledSchema, 'The provider and its new state'),
    400: errorResponse('Unknown provider or malformed body'),
    ...adminRefusals,
  },
});
