import { workflowLimits } from '@chorus/shared/api/workflows';
import { abandonedWorkflowRuns } from '../db/repositories/workflows.ts';
import type { Deps } from '../http/app-env.ts';
import { executeWorkflowRun, markInterrupted } from '../workflows/engine.ts';
import { defineJob } from './queue.ts';

export const WORKFLOW_RUN_QUEUE = 'workflow-run';

export type WorkflowRunJob = { run_id: string; user_id: string };

/** Queues a stored run for the `workflow-run` worker. */
export const enqueueWorkflowRun = (
  deps: Pick<Deps, 'jobs'>,
  run: { id: string; user_id: string },
) =>
  deps.jobs.send(WORKFLOW_RUN_QUEUE, {
    run_id: run.id,
    user_id: run.user_id,
  } satisfies WorkflowRunJob);

/**
 * One workflow run (issue 19), to its end. A retry of this job finds the run `running` (its
 * instance stopped) and marks it failed, to be retried by the user from its failed step.
 */
export const workflowRunJob = defineJob<Deps, WorkflowRunJob>({
  name: WORKFLOW_RUN_QUEUE,
  title: 'Run workflows',
  retry: { limit: 1, delaySeconds: 10 },
  // Longer than a run may take, so a live run is never taken for a dead one.
  expireInSeconds: Math.ceil(workflowLimits.runTimeoutMs / 1000) + 5 * 60,
  run: async (data, deps) => {
    await executeWorkflowRun(deps, data.run_id, data.user_id);
  },
});

/** Every few minutes: runs left `running` well past a run's time limit stopped with their server. */
export const workflowRunSweepJob = defineJob<Deps, object>({
  name: 'workflow-run-sweep',
  title: 'Fail workflow runs whose server stopped',
  cron: '*/5 * * * *',
  run: async (_data, deps) => {
    const stale = await abandonedWorkflowRuns(
      deps.database.db,
      workflowLimits.runTimeoutMs + 2 * 60_000,
    );
    // The rows read are the runs as they were; markInterrupted moves only those still running.
    for (const row of stale) await markInterrupted(deps, row);
  },
});

/** The workflow jobs, as the job list takes them. */
export const workflowJobs = [workflowRunJob, workflowRunSweepJob];
