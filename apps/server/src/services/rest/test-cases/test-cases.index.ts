import { TestCasesRepository } from '../../../db/repositories/scenarios.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { toTestCase } from '../scenarios/scenario-json.ts';
import { listTestCasesRoute } from './test-cases.routes.ts';

export const testCasesRouter = createRouter<AuthedEnv>().openapi(listTestCasesRoute, async (c) => {
  const { limit, unfiled } = c.req.valid('query');
  const rows = await new TestCasesRepository(c.var.deps.database.db, c.var.user.id).list(limit, {
    unfiled,
  });
  return c.json({ items: rows.map(toTestCase) }, 200);
});
