import { readAppSettings } from '../../../db/repositories/app-settings.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { getSignupModeRoute } from './signup-mode.routes.ts';

export const signupModeRouter = createRouter<AppEnv>().openapi(getSignupModeRoute, async (c) => {
  const { signup_mode, signup_notice } = await readAppSettings(c.var.deps.database.db);
  return c.json({ signup_mode, signup_notice }, 200);
});
