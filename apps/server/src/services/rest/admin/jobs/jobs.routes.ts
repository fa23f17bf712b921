import { createRoute } from '@hono/zod-openapi';
import {
  failedJobParamSchema,
  failedJobsSchema,
  jobQueueParamSchema,
  jobQueuesSchema,
  retriedJobSchema,
} from '@chorus/shared/api/jobs';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

const unavailable = errorResponse('The job queue is not running');

export const listJobQueuesRoute = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/admin/jobs',
  summary: 'Every background queue: its size, failures and schedule (admins only)',
  responses: {
    200: jsonContent(jobQueuesSchema, 'The queues of the job list, in its order'),
    ...adminRefusals,
    503: unavailable,
  },
});

export const listFailedJobsRoute = createRoute({
  ...adminOnly,
  method: 'get',
  path: '/admin/jobs/{name}/failed',
  summary: 'The latest runs of a queue that failed for good, with their error (admins only)',
  request: { params: jobQueueParamSchema },
  responses: {
    200: jsonContent(failedJobsSchema, 'Newest first, at most 50'),
    400: errorResponse('Not a queue name'),
    ...adminRefusals,
    404: errorResponse('No such queue'),
    503: unavailable,
  },
});

export const retryFailedJobRoute = createRoute({
  ...adminOnly,
  method: 'post',
  path: '/admin/jobs/{name}/failed/{id}/retry',
  summary: 'Run a failed job again; written to the audit log (admins only)',
  request: { params: failedJobParamSchema },
  responses: {
    200: jsonContent(retriedJobSchema, 'Queued to run again'),
    400: errorResponse('Not a queue name or job id'),
    ...adminRefusals,
    404: errorResponse('No such queue, or the job is not failed'),
    503: unavailable,
  },
});
