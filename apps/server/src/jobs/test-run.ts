import type { Deps } from '../http/app-env.ts';
import { executeTestRun } from '../test-runner/engine.ts';
import { defineJob } from './queue.ts';

export const TEST_RUN_QUEUE = 'test-run';

export type TestRunJob = { run_id: string; user_id: string };

/** Queues a stored run for the `test-run` worker; one queued job per run at most. */
export const enqueueTestRun = (deps: Pick<Deps, 'jobs'>, run: { id: string; user_id: string }) =>
  deps.jobs.send(TEST_RUN_QUEUE, { run_id: run.id, user_id: run.user_id } satisfies TestRunJob, {
    singletonKey: run.id,
  });

/**
 * One test run (issue 20), to its end. The engine skips the results stored already, so a job
 * run again — a retry, or the one the sweep of stopped instances queues — goes on where the run
 * stopped.
 */
export const testRunJob = defineJob<Deps, TestRunJob>({
  name: TEST_RUN_QUEUE,
  title: 'Run test sets',
  retry: { limit: 2, delaySeconds: 30 },
  // A run of 6,000 calls may take hours; the sweep, not the expiry, finds one whose instance stopped.
  expireInSeconds: 12 * 60 * 60,
  run: async (data, deps) => {
    await executeTestRun(deps, data.run_id, data.user_id);
  },
});

/** The test runner's jobs, as the job list takes them. */
export const testRunJobs = [testRunJob];
