import type { ApiKeySummary } from '@chorus/shared/api/keys';
import { apiKeyFormatError } from '@chorus/shared/api/keys';
import { messageFor } from '@chorus/shared/error-catalogue';
import { providerIds, providers } from '@chorus/shared/providers';
import { maskKey } from '../../../crypto/secret-box.ts';
import {
  UserApiKeysRepository,
  type GrantedKey,
  type MaskedApiKey,
} from '../../../db/repositories/api-keys.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { describeProviderKeys, keysChanged } from '../../../ai/keys.ts';
import {
  apiKeyAvailabilityRoute,
  deleteApiKeyRoute,
  listApiKeysRoute,
  putApiKeyRoute,
} from './api-keys.routes.ts';

const summary = (
  row: MaskedApiKey | GrantedKey,
  source: ApiKeySummary['source'],
): ApiKeySummary => ({
  provider: row.provider as ApiKeySummary['provider'],
  key_hint: row.key_hint,
  model: row.model,
  source,
  updated_at: row.updated_at.toISOString(),
});

export const apiKeysRouter = createRouter<AuthedEnv>()
  .openapi(listApiKeysRoute, async (c) => {
    const repo = new UserApiKeysRepository(c.var.deps.database.db, c.var.user.id);
    const [own, granted] = await Promise.all([repo.list(), repo.grantedKeys()]);
    const ownProviders = new Set(own.map((k) => k.provider));
    return c.json(
      [
        ...own.map((k) => summary(k, 'user')),
        ...granted.filter((k) => !ownProviders.has(k.provider)).map((k) => summary(k, 'default')),
      ],
      200,
    );
  })
  .openapi(apiKeyAvailabilityRoute, async (c) =>
    c.json(await describeProviderKeys(c.var.deps, { userId: c.var.user.id, providerIds }), 200),
  )
  .openapi(putApiKeyRoute, async (c) => {
    const { provider } = c.req.valid('param');
    const { api_key, model } = c.req.valid('json');
    const problem = apiKeyFormatError(provider, api_key);
    if (problem) throw new ApiError(400, 'keys:invalid_format', problem);
    const key = api_key.trim();
    const saved = await new UserApiKeysRepository(c.var.deps.database.db, c.var.user.id).upsert({
      provider,
      sealed: c.var.deps.box.seal(key),
      hint: maskKey(key),
      model: model || null,
    });
    await keysChanged(c.var.deps, c.var.user.id);
    return c.json(summary(saved, 'user'), 200);
  })
  .openapi(deleteApiKeyRoute, async (c) => {
    const { provider } = c.req.valid('param');
    const removed = await new UserApiKeysRepository(c.var.deps.database.db, c.var.user.id).remove(
      provider,
    );
    if (!removed) {
      throw new ApiError(
        404,
        'keys:not_found',
        messageFor('keys:not_found', { provider: providers[provider].name }),
      );
    }
    await keysChanged(c.var.deps, c.var.user.id);
    return c.body(null, 204);
  });
