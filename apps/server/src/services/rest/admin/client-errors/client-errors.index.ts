import type { AuthedEnv } from '../../../../http/app-env.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { listClientErrors } from '../../../../db/repositories/client-errors.ts';
import { listClientErrorsRoute } from './client-errors.routes.ts';

export const adminClientErrorsRouter = createRouter<AuthedEnv>().openapi(
  listClientErrorsRoute,
  async (c) => c.json(await listClientErrors(c.var.deps.database.db, c.req.valid('query')), 200),
);
