import { SystemKeysRepository } from '../../../db/repositories/system-keys.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { getSystemApiKeyRoute } from './get-system-api-key.routes.ts';

export const getSystemApiKeyRouter = createRouter<AuthedEnv>().openapi(
  getSystemApiKeyRoute,
  async (c) => {
    const { provider } = c.req.valid('json');
    const repo = new SystemKeysRepository(c.var.deps.database.db);
    const [disabled, [key]] = await Promise.all([
      repo.disabledProviders([provider]),
      repo.sealedKeys('system', [provider]),
    ]);
    const hint = key && !disabled.has(provider) ? key.key_hint : null;
    return c.json({ provider, available: hint !== null, api_key: hint }, 200);
  },
);
