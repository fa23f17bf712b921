import { workflowLimits } from '@chorus/shared/api/workflows';
import type { Deps } from '../http/app-env.ts';
import { executeWorkflowRun } from '../workflows/engine.ts';
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
 * One workflow run (issue 19), to its end. Should its instance stop, the run is failed by the
 * sweep of stopped instances (`recover-stopped-instances`); a retry of this job finds it ended.
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

/** The workflow jobs, as the job list takes them. */
export const workflowJobs = [workflowRunJob];
