import { z } from 'zod';

/** A background queue as the back office shows it (`GET /rest/v1/admin/jobs`). */
export const jobQueueSchema = z.object({
  name: z.string(),
  title: z.string(),
  /** Recurring work: a cron expression, evaluated in UTC. Null for work sent on demand. */
  cron: z.string().nullable(),
  ready: z.number().int(),
  deferred: z.number().int(),
  active: z.number().int(),
  failed: z.number().int(),
  completed: z.number().int(),
  last_completed_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
});
export type JobQueueSummary = z.infer<typeof jobQueueSchema>;

export const jobQueuesSchema = z.object({ queues: z.array(jobQueueSchema) });
export type JobQueues = z.infer<typeof jobQueuesSchema>;

/** A run that failed for good (its retries used up); its payload is never shown. */
export const failedJobSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  failed_at: z.string().nullable(),
  retry_count: z.number().int(),
  error: z.string(),
});
export type FailedJob = z.infer<typeof failedJobSchema>;

export const failedJobsSchema = z.object({ jobs: z.array(failedJobSchema) });
export type FailedJobs = z.infer<typeof failedJobsSchema>;

export const FAILED_JOBS_PAGE = 50;

export const jobQueueParamSchema = z.object({
  name: z.string().regex(/^[a-z0-9-]{1,100}$/, 'Not a queue name'),
});
export const failedJobParamSchema = jobQueueParamSchema.extend({
  id: z.uuid({ error: 'Not a job id' }),
});

export const retriedJobSchema = z.object({ retried: z.literal(true) });
