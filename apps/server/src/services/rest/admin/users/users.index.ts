import { listUserStatistics } from '../../../../db/repositories/user-statistics.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { listUsersRoute } from './users.routes.ts';

export const adminUsersRouter = createRouter<AuthedEnv>().openapi(listUsersRoute, async (c) =>
  c.json(await listUserStatistics(c.var.deps.database.db, c.req.valid('query')), 200),
);
