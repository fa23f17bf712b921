import { readAppSettings, updateAppSettings } from '../../../../db/repositories/app-settings.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { getSettingsRoute, putSettingsRoute } from './settings.routes.ts';

export const adminSettingsRouter = createRouter<AuthedEnv>()
  .openapi(getSettingsRoute, async (c) =>
    c.json(await readAppSettings(c.var.deps.database.db), 200),
  )
  .openapi(putSettingsRoute, async (c) => {
    const settings = await updateAppSettings(
      c.var.deps.database.db,
      c.var.user.id,
      c.req.valid('json'),
    );
    c.var.deps.log.info({ adminId: c.var.user.id, signupMode: settings.signup_mode }, 'settings');
    return c.json(settings, 200);
  });
