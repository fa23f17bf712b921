import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { trendsOf } from './trends-data.ts';
import { trendsRoute } from './trends.routes.ts';

export const trendsRouter = createRouter<AuthedEnv>().openapi(trendsRoute, async (c) =>
  c.json(await trendsOf(c.var.deps.database.db), 200),
);
