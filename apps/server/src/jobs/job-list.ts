import type { Deps } from '../http/app-env.ts';
import { accessRequestJob, passwordResetJob } from './account-requests.ts';
import { emailOutboxSweepJob, emailRetryJob, type EmailRetryPolicy } from './email-retry.ts';
import { knowledgeIngestJob, knowledgeReembedJob, knowledgeResumeJob } from './knowledge-jobs.ts';
import { pruneExpiredAuthJob } from './prune-expired-auth.ts';
import { recoverStoppedInstancesJob } from './recover-stopped-instances.ts';
import { refreshPlannerStatisticsJob } from './refresh-planner-statistics.ts';
import { scheduleJobs } from './schedules.ts';
import type { JobDefinition } from './queue.ts';
import { sweepAbandonedUploadsJob } from './sweep-abandoned-uploads.ts';
import { testRunJobs } from './test-run.ts';
import { workflowJobs } from './workflow-run.ts';

/**
 * Every queue, worker and cron schedule of the server, in one place (ARCHITECTURE §11). A new
 * kind of background work is added here and nowhere else; `deps.jobs.start` registers them all.
 */
export const jobList = (
  opts: { emailRetry?: EmailRetryPolicy } = {},
): readonly JobDefinition<Deps>[] => [
  emailRetryJob(opts.emailRetry),
  emailOutboxSweepJob,
  passwordResetJob,
  accessRequestJob,
  sweepAbandonedUploadsJob,
  recoverStoppedInstancesJob,
  pruneExpiredAuthJob,
  refreshPlannerStatisticsJob,
  knowledgeIngestJob,
  knowledgeReembedJob,
  knowledgeResumeJob,
  ...workflowJobs,
  ...scheduleJobs,
  ...testRunJobs,
];
