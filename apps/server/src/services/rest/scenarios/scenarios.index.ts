import { scenarioLimits } from '@chorus/shared/api/scenarios';
import { decodeCursor, encodeCursor } from '../../../db/keyset-cursor.ts';
import { ScenarioRunsRepository, ScenariosRepository } from '../../../db/repositories/scenarios.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { scenarioNotFound, tooManyScenarios, toScenario, toScenarioRun } from './scenario-json.ts';
import {
  createScenarioRoute,
  deleteScenarioRoute,
  getScenarioRoute,
  listScenarioRunsRoute,
  listScenariosRoute,
  updateScenarioRoute,
} from './scenarios.routes.ts';

/** The position after which a page starts; a cursor this server did not write is a 400. */
const positionOf = (cursor: string | undefined) => {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw new ApiError(400, 'scenarios:bad_cursor');
  return after;
};

/** One extra row tells whether another page exists without a count query. */
const pageOf = <T extends { created_at: Date; id: string }>(rows: T[], limit: number) => {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
};

const scenariosOf = (c: { var: AuthedEnv['Variables'] }) =>
  new ScenariosRepository(c.var.deps.database.db, c.var.user.id);

export const scenariosRouter = createRouter<AuthedEnv>()
  .openapi(listScenariosRoute, async (c) => {
    const { limit, cursor, search } = c.req.valid('query');
    const after = positionOf(cursor);
    const rows = await scenariosOf(c).list({ limit: limit + 1, after, search });
    const { page, next_cursor } = pageOf(rows, limit);
    return c.json({ items: page.map(toScenario), next_cursor }, 200);
  })
  .openapi(createScenarioRoute, async (c) => {
    const body = c.req.valid('json');
    const { deps, user } = c.var;
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'scenarios', user.id, async (tx) => {
      const repo = new ScenariosRepository(tx, user.id);
      if ((await repo.count()) >= scenarioLimits.perUser) throw tooManyScenarios();
      return repo.create(body);
    });
    return c.json(toScenario(row), 201);
  })
  .openapi(getScenarioRoute, async (c) => {
    const { id } = c.req.valid('param');
    const row = isUuid(id) ? await scenariosOf(c).get(id) : undefined;
    if (!row) throw scenarioNotFound();
    return c.json(toScenario(row), 200);
  })
  .openapi(updateScenarioRoute, async (c) => {
    const { id } = c.req.valid('param');
    const row = isUuid(id) ? await scenariosOf(c).update(id, c.req.valid('json')) : undefined;
    if (!row) throw scenarioNotFound();
    return c.json(toScenario(row), 200);
  })
  .openapi(deleteScenarioRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id) || !(await scenariosOf(c).delete(id))) throw scenarioNotFound();
    return c.body(null, 204);
  })
  .openapi(listScenarioRunsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { limit, cursor } = c.req.valid('query');
    if (!isUuid(id)) throw scenarioNotFound();
    const after = positionOf(cursor);
    const { db } = c.var.deps.database;
    const [scenario, rows] = await Promise.all([
      scenariosOf(c).get(id),
      new ScenarioRunsRepository(db, c.var.user.id).listOfScenario(id, { limit: limit + 1, after }),
    ]);
    if (!scenario) throw scenarioNotFound();
    const { page, next_cursor } = pageOf(rows, limit);
    const now = Date.now();
    return c.json({ items: page.map((r) => toScenarioRun(r, now)), next_cursor }, 200);
  });
