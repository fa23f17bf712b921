import { ScenarioRunsRepository, TestCasesRepository } from '../../../db/repositories/scenarios.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { badTarget, runNotFound, toScenarioRun, toTestCase } from '../scenarios/scenario-json.ts';
import {
  getScenarioRunRoute,
  rateScenarioRunRoute,
  saveTestCaseRoute,
} from './scenario-runs.routes.ts';

const runsOf = (c: { var: AuthedEnv['Variables'] }) =>
  new ScenarioRunsRepository(c.var.deps.database.db, c.var.user.id);

/** The longest test case name taken from a run's title. */
const NAME_MAX = 200;

export const scenarioRunsRouter = createRouter<AuthedEnv>()
  .openapi(getScenarioRunRoute, async (c) => {
    const { runId } = c.req.valid('param');
    const run = isUuid(runId) ? await runsOf(c).get(runId) : undefined;
    if (!run) throw runNotFound();
    return c.json(toScenarioRun(run), 200);
  })
  .openapi(rateScenarioRunRoute, async (c) => {
    const { runId } = c.req.valid('param');
    const rated = isUuid(runId) ? await runsOf(c).rate(runId, c.req.valid('json')) : undefined;
    if (!rated) throw runNotFound();
    if (rated === 'bad_target') throw badTarget();
    return c.json(toScenarioRun(rated), 200);
  })
  .openapi(saveTestCaseRoute, async (c) => {
    const { runId } = c.req.valid('param');
    const body = c.req.valid('json');
    const run = isUuid(runId) ? await runsOf(c).get(runId) : undefined;
    if (!run) throw runNotFound();
    const column = run.results[body.target];
    if (!column) throw badTarget();
    const row = await new TestCasesRepository(c.var.deps.database.db, c.var.user.id).create({
      name: body.name || `${run.title} — ${column.provider}`.slice(0, NAME_MAX),
      system_prompt: run.system_prompt,
      prompt: run.user_prompt,
      variables: run.variables,
      expected_output: body.expected_output ?? column.text,
      scenario_id: run.scenario_id,
      scenario_run_id: run.id,
      provider: column.provider,
      model: column.model,
    });
    return c.json(toTestCase(row), 201);
  });
