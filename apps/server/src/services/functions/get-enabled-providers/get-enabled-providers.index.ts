import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { listEnabledProviders } from '../../keys/enabled-providers.ts';
import { getEnabledProvidersRoute } from './get-enabled-providers.routes.ts';

export const getEnabledProvidersRouter = createRouter<AuthedEnv>().openapi(
  getEnabledProvidersRoute,
  async (c) => c.json({ providers: await listEnabledProviders(c.var.deps.database.db) }, 200),
);
