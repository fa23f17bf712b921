import { keysChanged } from '../../../ai/keys.ts';
import { UserApiKeysRepository } from '../../../db/repositories/api-keys.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { copySystemApiKeysRoute } from './copy-system-api-keys.routes.ts';

export const copySystemApiKeysRouter = createRouter<AuthedEnv>().openapi(
  copySystemApiKeysRoute,
  async (c) => {
    const copied = await new UserApiKeysRepository(
      c.var.deps.database.db,
      c.var.user.id,
    ).grantDefaultKeys();
    if (copied.length > 0) {
      await keysChanged(c.var.deps, c.var.user.id);
      c.var.deps.log.info({ userId: c.var.user.id, copied }, 'default keys granted');
    }
    return c.json({ copied }, 200);
  },
);
