import type { z } from '@hono/zod-openapi';
import {
  workflowLimits,
  type Workflow,
  type workflowVersionSchema,
} from '@chorus/shared/api/workflows';
import { decodeCursor, encodeCursor } from '../../../db/keyset-cursor.ts';
import {
  fieldsOfRow,
  fieldsOfSnapshot,
  WorkflowRunsRepository,
  WorkflowsRepository,
  type WorkflowRow,
  type WorkflowVersionRow,
} from '../../../db/repositories/workflows.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { enqueueWorkflowRun } from '../../../jobs/workflow-run.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { prepareRetry, toWorkflowRun } from '../../../workflows/engine.ts';
import { checkWorkflow, refusalBody } from '../../../workflows/validate.ts';
import {
  cancelWorkflowRunRoute,
  createWorkflowRoute,
  deleteWorkflowRoute,
  getWorkflowRoute,
  getWorkflowRunRoute,
  listWorkflowRunsRoute,
  listWorkflowsRoute,
  listWorkflowVersionsRoute,
  restoreWorkflowVersionRoute,
  retryWorkflowRunRoute,
  updateWorkflowRoute,
} from './workflows.routes.ts';

const workflowNotFound = () => new ApiError(404, 'workflows:not_found');
const runNotFound = () => new ApiError(404, 'workflows:run_not_found');

export const toWorkflow = (row: WorkflowRow): Workflow => ({
  id: row.id,
  ...fieldsOfRow(row),
  version: row.version,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const toWorkflowVersion = (row: WorkflowVersionRow): z.infer<typeof workflowVersionSchema> => ({
  version: row.version,
  created_at: row.created_at.toISOString(),
  workflow: fieldsOfSnapshot(row),
});

const positionOf = (cursor: string | undefined) => {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw new ApiError(400, 'workflows:bad_cursor');
  return after;
};

export const workflowsRouter = createRouter<AuthedEnv>()
  .openapi(listWorkflowsRoute, async (c) => {
    const rows = await new WorkflowsRepository(c.var.deps.database.db, c.var.user.id).list();
    return c.json({ workflows: rows.map(toWorkflow) }, 200);
  })
  .openapi(createWorkflowRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const problem = await checkWorkflow(deps, user.id, body);
    if (problem) return c.json(refusalBody(problem), 400);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'workflows', user.id, async (tx) => {
      const repo = new WorkflowsRepository(tx, user.id);
      if ((await repo.count()) >= workflowLimits.perUser) {
        throw new ApiError(409, 'workflows:too_many');
      }
      return repo.create(body);
    });
    return c.json(toWorkflow(row), 201);
  })
  .openapi(getWorkflowRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw workflowNotFound();
    const row = await new WorkflowsRepository(c.var.deps.database.db, c.var.user.id).get(id);
    if (!row) throw workflowNotFound();
    return c.json(toWorkflow(row), 200);
  })
  .openapi(updateWorkflowRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw workflowNotFound();
    const patch = c.req.valid('json');
    const repo = new WorkflowsRepository(deps.database.db, user.id);
    const current = await repo.get(id);
    if (!current) throw workflowNotFound();
    const problem = await checkWorkflow(deps, user.id, { ...fieldsOfRow(current), ...patch });
    if (problem) return c.json(refusalBody(problem), 400);
    const row = await repo.update(id, patch);
    if (!row) throw workflowNotFound();
    return c.json(toWorkflow(row), 200);
  })
  .openapi(deleteWorkflowRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw workflowNotFound();
    const repo = new WorkflowsRepository(c.var.deps.database.db, c.var.user.id);
    if (!(await repo.remove(id))) throw workflowNotFound();
    return c.body(null, 204);
  })
  .openapi(listWorkflowVersionsRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw workflowNotFound();
    const repo = new WorkflowsRepository(c.var.deps.database.db, c.var.user.id);
    if (!(await repo.get(id))) throw workflowNotFound();
    const rows = await repo.versions(id);
    return c.json({ versions: rows.map(toWorkflowVersion) }, 200);
  })
  .openapi(restoreWorkflowVersionRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, version } = c.req.valid('param');
    if (!isUuid(id)) throw workflowNotFound();
    const repo = new WorkflowsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw workflowNotFound();
    const saved = /^[1-9][0-9]{0,8}$/.test(version)
      ? await repo.version(id, Number(version))
      : null;
    if (!saved) throw new ApiError(404, 'workflows:version_not_found');
    const fields = fieldsOfSnapshot(saved);
    const problem = await checkWorkflow(deps, user.id, fields);
    if (problem) return c.json(refusalBody(problem), 400);
    const row = await repo.update(id, fields);
    if (!row) throw workflowNotFound();
    return c.json(toWorkflow(row), 200);
  })
  .openapi(listWorkflowRunsRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    const { limit, cursor } = c.req.valid('query');
    if (!isUuid(id)) throw workflowNotFound();
    const after = positionOf(cursor);
    if (!(await new WorkflowsRepository(deps.database.db, user.id).get(id))) {
      throw workflowNotFound();
    }
    const rows = await new WorkflowRunsRepository(deps.database.db, user.id).list(id, {
      limit: limit + 1,
      after,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        runs: page.map(toWorkflowRun),
        next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
      },
      200,
    );
  })
  .openapi(getWorkflowRunRoute, async (c) => {
    const { runId } = c.req.valid('param');
    if (!isUuid(runId)) throw runNotFound();
    const row = await new WorkflowRunsRepository(c.var.deps.database.db, c.var.user.id).get(runId);
    if (!row) throw runNotFound();
    return c.json(toWorkflowRun(row), 200);
  })
  .openapi(cancelWorkflowRunRoute, async (c) => {
    const { runId } = c.req.valid('param');
    if (!isUuid(runId)) throw runNotFound();
    const repo = new WorkflowRunsRepository(c.var.deps.database.db, c.var.user.id);
    const row = await repo.get(runId);
    if (!row) throw runNotFound();
    if (row.status !== 'queued' && row.status !== 'running') {
      throw new ApiError(409, 'workflows:run_finished');
    }
    // A queued run ends here; a running one is stopped by its worker, which polls the flag.
    const cancelled =
      row.status === 'queued'
        ? await repo.transition(runId, 'queued', {
            status: 'cancelled',
            cancel_requested: true,
            steps: (row.steps as { status: string }[]).map((s) => ({
              ...s,
              status: 'cancelled',
            })),
            finished_at: new Date(),
          })
        : null;
    const updated = cancelled ?? (await repo.update(runId, { cancel_requested: true }));
    return c.json(toWorkflowRun(updated ?? row), 200);
  })
  .openapi(retryWorkflowRunRoute, async (c) => {
    const { deps, user } = c.var;
    const { runId } = c.req.valid('param');
    if (!isUuid(runId)) throw runNotFound();
    const row = await new WorkflowRunsRepository(deps.database.db, user.id).get(runId);
    if (!row) throw runNotFound();
    const queued = await prepareRetry(deps, row);
    if (!queued) throw new ApiError(409, 'workflows:run_not_failed');
    await enqueueWorkflowRun(deps, queued);
    return c.json(toWorkflowRun(queued), 202);
  });
