import { FAILED_JOBS_PAGE } from '@chorus/shared/api/jobs';
import { writeAuditLog } from '../../../../db/repositories/audit-logs.ts';
import type { AuthedEnv, Deps } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { listFailedJobsRoute, listJobQueuesRoute, retryFailedJobRoute } from './jobs.routes.ts';

/** The queue, once it is known to run and to hold `name`. */
const runningQueue = async (deps: Deps, name?: string) => {
  if (!deps.jobs.running) throw new ApiError(503, 'jobs:unavailable');
  const queues = await deps.jobs.summaries();
  if (name !== undefined && !queues.some((q) => q.name === name)) {
    throw new ApiError(404, 'jobs:queue_not_found');
  }
  return queues;
};

export const adminJobsRouter = createRouter<AuthedEnv>()
  .openapi(listJobQueuesRoute, async (c) => c.json({ queues: await runningQueue(c.var.deps) }, 200))
  .openapi(listFailedJobsRoute, async (c) => {
    const { name } = c.req.valid('param');
    await runningQueue(c.var.deps, name);
    return c.json({ jobs: await c.var.deps.jobs.failedJobs(name, FAILED_JOBS_PAGE) }, 200);
  })
  .openapi(retryFailedJobRoute, async (c) => {
    const { deps } = c.var;
    const { name, id } = c.req.valid('param');
    await runningQueue(deps, name);
    if (!(await deps.jobs.retry(name, id))) {
      throw new ApiError(404, 'jobs:failed_job_not_found');
    }
    await writeAuditLog(deps.database.db, c.var.user.id, {
      action: 'retry_job',
      table_name: 'pgboss.job',
      record_id: id,
      details: { queue: name },
    });
    deps.log.info({ adminId: c.var.user.id, queue: name, jobId: id }, 'failed job retried');
    return c.json({ retried: true as const }, 200);
  });
