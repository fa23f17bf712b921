import type { AdminApiKeySummary } from '@chorus/shared/api/admin-keys';
import { apiKeyFormatError } from '@chorus/shared/api/keys';
import { providerIds, providers } from '@chorus/shared/providers';
import { maskKey } from '../../../../crypto/secret-box.ts';
import {
  AdminKeysRepository,
  SystemKeysRepository,
  type MaskedSystemKey,
} from '../../../../db/repositories/system-keys.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { invalidateEnabledProviders } from '../../../keys/enabled-providers.ts';
import { keysChanged } from '../../../../ai/keys.ts';
import {
  deleteAdminApiKeyRoute,
  listAdminApiKeysRoute,
  patchProviderRoute,
  putAdminApiKeyRoute,
} from './api-keys.routes.ts';
import { messageFor } from '@chorus/shared/error-catalogue';

const summary = (row: MaskedSystemKey): AdminApiKeySummary => ({
  provider: row.provider as AdminApiKeySummary['provider'],
  kind: row.kind,
  key_hint: row.key_hint,
  model: row.model,
  updated_at: row.updated_at.toISOString(),
});

export const adminApiKeysRouter = createRouter<AuthedEnv>()
  .openapi(listAdminApiKeysRoute, async (c) => {
    const repo = new SystemKeysRepository(c.var.deps.database.db);
    const [rows, disabled] = await Promise.all([repo.list(), repo.disabledProviders()]);
    return c.json(
      {
        keys: rows
          .filter((r) => (providerIds as readonly string[]).includes(r.provider))
          .map(summary),
        providers: providerIds.map((provider) => ({ provider, enabled: !disabled.has(provider) })),
      },
      200,
    );
  })
  .openapi(putAdminApiKeyRoute, async (c) => {
    const { kind, provider } = c.req.valid('param');
    const { api_key, model } = c.req.valid('json');
    const problem = apiKeyFormatError(provider, api_key);
    if (problem) throw new ApiError(400, 'keys:invalid_format', problem);
    const key = api_key.trim();
    const saved = await new AdminKeysRepository(c.var.deps.database.db, c.var.user.id).upsertKey({
      provider,
      kind,
      sealed: c.var.deps.box.seal(key),
      hint: maskKey(key),
      model: model || null,
    });
    await keysChanged(c.var.deps);
    c.var.deps.log.info({ adminId: c.var.user.id, provider, kind }, 'admin key set');
    return c.json(summary(saved), 200);
  })
  .openapi(deleteAdminApiKeyRoute, async (c) => {
    const { kind, provider } = c.req.valid('param');
    const removed = await new AdminKeysRepository(c.var.deps.database.db, c.var.user.id).removeKey(
      provider,
      kind,
    );
    if (!removed) {
      throw new ApiError(
        404,
        'keys:not_found',
        messageFor('keys:not_found', { provider: providers[provider].name, kind }),
      );
    }
    await keysChanged(c.var.deps);
    c.var.deps.log.info({ adminId: c.var.user.id, provider, kind }, 'admin key removed');
    return c.body(null, 204);
  })
  .openapi(patchProviderRoute, async (c) => {
    const { provider } = c.req.valid('param');
    const { enabled } = c.req.valid('json');
    const db = c.var.deps.database.db;
    await new AdminKeysRepository(db, c.var.user.id).setProviderEnabled(provider, enabled);
    invalidateEnabledProviders(db);
    await keysChanged(c.var.deps);
    c.var.deps.log.info({ adminId: c.var.user.id, provider, enabled }, 'provider switched');
    return c.json({ provider, enabled }, 200);
  });
