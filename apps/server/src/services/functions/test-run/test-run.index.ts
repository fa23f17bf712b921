import { testRunLimits, type StartTestRun } from '@chorus/shared/api/test-runs';
import { TestRunsRepository } from '../../../db/repositories/test-runs.ts';
import { TestSetsRepository } from '../../../db/repositories/test-sets.ts';
import type { CallerEnv } from '../../../http/access-token.ts';
import type { Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { enqueueTestRun } from '../../../jobs/test-run.ts';
import { cancelTestRun, finishTestRun } from '../../../test-runner/engine.ts';
import { estimatePlan, estimateTestRun } from '../../../test-runner/estimate.ts';
import { planCase, type RunPlan } from '../../../test-runner/plan.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { toTestRunStatus } from '../../../test-runner/status.ts';
import { resolveSubject } from '../../../test-runner/subject.ts';
import { ownedRun, runNotFound } from '../../rest/test-runs/test-runs.index.ts';
import {
  cancelTestRunRoute,
  estimateTestRunRoute,
  startTestRunRoute,
  testRunStatusRoute,
} from './test-run.routes.ts';

/** The set (the caller's), its cases and what is under test, as a run would keep them. */
const planFor = async (deps: Deps, userId: string, body: StartTestRun) => {
  const db = deps.database.db;
  const sets = new TestSetsRepository(db, userId);
  const set = await sets.getRow(body.test_set_id.toLowerCase());
  if (!set) throw new ApiError(404, 'test_sets:not_found');
  const cases = (await sets.listCases(set.id)) ?? [];
  if (cases.length === 0) throw new ApiError(422, 'test_runs:no_cases');
  const subject = await resolveSubject(db, userId, { kind: set.subject_kind, id: set.subject_id });
  if (!subject) throw new ApiError(422, 'test_sets:subject_not_found');
  const plan: RunPlan = { subject, cases: cases.map(planCase) };
  return { set, plan };
};

export const testRunRouter = createRouter<CallerEnv>()
  .openapi(startTestRunRoute, async (c) => {
    const { deps, caller } = c.var;
    const body = c.req.valid('json');
    const { set, plan } = await planFor(deps, caller.userId, body);
    const total = plan.cases.length * body.targets.length * body.repeats;
    if (total > testRunLimits.callsPerRun) throw new ApiError(422, 'test_runs:too_large');
    if (!deps.jobs.running) throw new ApiError(503, 'jobs:unavailable');
    const repo = new TestRunsRepository(deps.database.db, caller.userId);
    // Counted and stored under the user's lock: two starts at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'test_runs', caller.userId, async (tx) => {
      const runs = new TestRunsRepository(tx, caller.userId);
      if ((await runs.countActive()) >= testRunLimits.activeRunsPerUser) {
        throw new ApiError(429, 'test_runs:too_many_runs');
      }
      return runs.create({
        test_set_id: set.id,
        name: set.name,
        source: caller.via === 'token' ? 'token' : 'app',
        targets: body.targets,
        repeats: body.repeats,
        plan: plan as unknown as Record<string, unknown>,
        total,
        estimated_cost_usd: estimatePlan(plan, body.targets, body.repeats).estimated_cost_usd,
      });
    });
    try {
      await enqueueTestRun(deps, row);
    } catch (error) {
      deps.log.error({ err: error, runId: row.id }, 'a test run could not be queued');
      await finishTestRun(deps, repo, row, 'failed', new ApiError(503, 'jobs:unavailable').message);
      throw new ApiError(503, 'jobs:unavailable');
    }
    return c.json(toTestRunStatus(row, deps.config.appUrl), 202);
  })
  .openapi(estimateTestRunRoute, async (c) => {
    const { deps, caller } = c.var;
    const body = c.req.valid('json');
    const { plan } = await planFor(deps, caller.userId, body);
    return c.json(
      await estimateTestRun(deps, caller.userId, plan, body.targets, body.repeats),
      200,
    );
  })
  .openapi(testRunStatusRoute, async (c) => {
    const { deps, caller } = c.var;
    const repo = new TestRunsRepository(deps.database.db, caller.userId);
    const row = await ownedRun(repo, c.req.valid('param').id);
    return c.json(toTestRunStatus(row, deps.config.appUrl), 200);
  })
  .openapi(cancelTestRunRoute, async (c) => {
    const { deps, caller } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw runNotFound();
    const row = await cancelTestRun(deps, caller.userId, id.toLowerCase());
    if (row === null) throw runNotFound();
    if (row === 'finished') throw new ApiError(409, 'test_runs:finished');
    return c.json(toTestRunStatus(row, deps.config.appUrl), 200);
  });
