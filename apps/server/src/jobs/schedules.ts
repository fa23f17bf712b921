import type { Deps } from '../http/app-env.ts';
import {
  runOccurrence,
  SCHEDULE_RUN_QUEUE,
  tickSchedules,
  type ScheduleRunJob,
} from '../schedules/occurrences.ts';
import { defineJob } from './queue.ts';

/**
 * Every minute, on one instance (pg-boss fires a cron occurrence once): claims the occurrences of
 * users' schedules that are due and hands each to `schedule-run`, so a slow target never holds
 * the tick up. Each schedule keeps its own cron and time zone; the tick only looks at
 * `next_run_at`.
 */
export const schedulesTickJob = defineJob<Deps, object>({
  name: 'schedules-tick',
  title: 'Start the scheduled runs that are due',
  cron: '* * * * *',
  run: async (_data, deps) => {
    await tickSchedules(deps);
  },
});

/**
 * One claimed occurrence. Never retried: a retry would call the model (and spend the user's
 * quota) a second time; a run that failed is stored as failed and mailed.
 */
export const scheduleRunJob = defineJob<Deps, ScheduleRunJob>({
  name: SCHEDULE_RUN_QUEUE,
  title: 'Run a scheduled prompt, scenario, agent task or workflow',
  expireInSeconds: 30 * 60,
  run: (data, deps) => runOccurrence(deps, data),
});

export const scheduleJobs = [schedulesTickJob, scheduleRunJob];
