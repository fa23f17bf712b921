import { UserApiKeysRepository } from '../../../db/repositories/api-keys.ts';
import { SystemKeysRepository } from '../../../db/repositories/system-keys.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { getDefaultApiKeyRoute } from './get-default-api-key.routes.ts';

export const getDefaultApiKeyRouter = createRouter<AuthedEnv>().openapi(
  getDefaultApiKeyRoute,
  async (c) => {
    const { provider } = c.req.valid('json');
    const db = c.var.deps.database.db;
    const [disabled, granted] = await Promise.all([
      new SystemKeysRepository(db).disabledProviders([provider]),
      new UserApiKeysRepository(db, c.var.user.id).grantedKeys(),
    ]);
    const key = disabled.has(provider) ? undefined : granted.find((k) => k.provider === provider);
    return c.json({ provider, available: Boolean(key), api_key: key?.key_hint ?? null }, 200);
  },
);
