import { decodeCursor, encodeCursor } from '../../../db/keyset-cursor.ts';
import { activeStatuses, TestRunsRepository } from '../../../db/repositories/test-runs.ts';
import type { CallerEnv } from '../../../http/access-token.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { toTestRunBrief } from '../../../test-runner/brief.ts';
import { resultsCsv, resultsJson, toTestResult } from '../../../test-runner/export.ts';
import { buildTotals } from '../../../test-runner/matrix.ts';
import { planOf } from '../../../test-runner/plan.ts';
import { cellsAgainst, cellsOf, targetsOf } from '../../../test-runner/report.ts';
import { toTestRunStatus } from '../../../test-runner/status.ts';
import {
  deleteTestRunRoute,
  exportTestRunRoute,
  listTestRunsRoute,
  testRunMatrixRoute,
  testRunResultsRoute,
} from './test-runs.routes.ts';

export const runNotFound = () => new ApiError(404, 'test_runs:not_found');

/** The caller's run by its path id: a malformed id is as unknown as someone else's. */
export const ownedRun = async (repo: TestRunsRepository, id: string) => {
  if (!isUuid(id)) throw runNotFound();
  const row = await repo.get(id.toLowerCase());
  if (!row) throw runNotFound();
  return row;
};

const positionOf = (cursor: string | undefined) => {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw new ApiError(400, 'test_runs:bad_cursor');
  return after;
};

/** Every route reads `c.var.user`: the session's, or an access token's owner (export). */
const repoOf = (c: { var: CallerEnv['Variables'] }) =>
  new TestRunsRepository(c.var.deps.database.db, c.var.user.id);

export const testRunsRouter = createRouter<CallerEnv>()
  .openapi(listTestRunsRoute, async (c) => {
    const query = c.req.valid('query');
    const rows = await repoOf(c).list({
      testSetId: query.test_set_id?.toLowerCase(),
      limit: query.limit + 1,
      after: positionOf(query.cursor),
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return c.json(
      {
        items: page.map(toTestRunBrief),
        next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
      },
      200,
    );
  })
  .openapi(testRunMatrixRoute, async (c) => {
    const repo = repoOf(c);
    const run = await ownedRun(repo, c.req.valid('param').id);
    const { compare_to } = c.req.valid('query');
    const other = compare_to ? await repo.get(compare_to.toLowerCase()) : null;
    if (compare_to && !other) throw runNotFound();
    if (other && other.test_set_id !== run.test_set_id) {
      throw new ApiError(422, 'test_runs:other_set');
    }
    const results = await repo.resultsForMatrix(run.id);
    const cells = await cellsOf(repo, run, results);
    return c.json(
      {
        run: toTestRunStatus(run, c.var.deps.config.appUrl),
        cases: planOf(run).cases.map((tc) => ({
          id: tc.id,
          name: tc.name,
          assertions: tc.assertions,
        })),
        cells: other ? await cellsAgainst(repo, run, cells, other) : cells,
        totals: buildTotals(targetsOf(run).length, results),
        compared_to: other ? toTestRunBrief(other) : null,
      },
      200,
    );
  })
  .openapi(testRunResultsRoute, async (c) => {
    const repo = repoOf(c);
    const run = await ownedRun(repo, c.req.valid('param').id);
    const { case_id, target } = c.req.valid('query');
    const rows = await repo.cellResults(run.id, case_id.toLowerCase(), target);
    return c.json({ items: rows.map(toTestResult) }, 200);
  })
  .openapi(exportTestRunRoute, async (c) => {
    const repo = repoOf(c);
    const run = await ownedRun(repo, c.req.valid('param').id);
    const { format } = c.req.valid('query');
    const rows = await repo.results(run.id);
    const { cases } = planOf(run);
    const name = `chorus-test-run-${run.id}.${format}`;
    const headers = {
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    };
    if (format === 'csv') {
      return c.body(resultsCsv(cases, targetsOf(run), rows), 200, {
        ...headers,
        'content-type': 'text/csv; charset=utf-8',
      });
    }
    const body = resultsJson(toTestRunStatus(run, c.var.deps.config.appUrl), cases, rows);
    return c.body(JSON.stringify(body, null, 2), 200, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
    });
  })
  .openapi(deleteTestRunRoute, async (c) => {
    const repo = repoOf(c);
    const run = await ownedRun(repo, c.req.valid('param').id);
    if ((activeStatuses as readonly string[]).includes(run.status)) {
      throw new ApiError(409, 'test_runs:active');
    }
    // Ended in between (or started again by nobody): the delete only takes an ended run.
    if (!(await repo.remove(run.id))) throw new ApiError(409, 'test_runs:active');
    return c.body(null, 204);
  });
