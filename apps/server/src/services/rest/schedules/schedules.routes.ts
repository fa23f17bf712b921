import { createRoute, z } from '@hono/zod-openapi';
import {
  createScheduleSchema,
  listScheduleRunsQuerySchema,
  scheduleListSchema,
  schedulePreviewQuerySchema,
  schedulePreviewSchema,
  scheduleRunListSchema,
  scheduleRunSchema,
  scheduleSchema,
  updateScheduleSchema,
} from '@chorus/shared/api/schedules';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Schedules'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};
const badSchedule =
  'Invalid fields, a cron expression that is not five valid fields (`schedules:bad_cron`), an unknown time zone (`schedules:bad_time_zone`), or one that runs more often than your plan allows (`schedules:too_frequent`)';
const notYoursTarget =
  'No such schedule of yours, or a prompt, scenario, agent or workflow that is not yours (its own `*:not_found`)';

export const listSchedulesRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/schedules',
  summary: 'Your schedules, newest first',
  responses: {
    200: jsonContent(scheduleListSchema, 'Your schedules, each with its next five run times'),
    401: errorResponse('Not signed in'),
  },
});

export const previewScheduleRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/schedules/preview',
  summary: 'A cron expression in words, and its next five run times',
  description: 'Checks an expression as it is typed, in an IANA time zone, as a save would.',
  request: { query: schedulePreviewQuerySchema },
  responses: {
    200: jsonContent(schedulePreviewSchema, 'Its description and next five occurrences'),
    400: errorResponse(badSchedule),
    401: errorResponse('Not signed in'),
  },
});

export const createScheduleRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/schedules',
  summary: 'Schedule a saved prompt, scenario, agent task or workflow',
  description:
    'Runs on a five-field cron expression in an IANA time zone (09:00 Europe/Berlin stays 09:00 local across DST), on your keys and quota, and e-mails you as asked.',
  request: json(createScheduleSchema),
  responses: {
    201: jsonContent(scheduleSchema, 'The new schedule'),
    400: errorResponse(badSchedule),
    401: errorResponse('Not signed in'),
    404: errorResponse(notYoursTarget),
    409: errorResponse('As many schedules as your plan keeps (`schedules:too_many`)'),
  },
});

export const getScheduleRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/schedules/{id}',
  summary: 'One of your schedules',
  request: { params: idParam },
  responses: {
    200: jsonContent(scheduleSchema, 'The schedule'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such schedule of yours'),
  },
});

export const updateScheduleRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/schedules/{id}',
  summary: 'Change a schedule',
  description: 'A change of expression or time zone moves the next run to match.',
  request: { params: idParam, ...json(updateScheduleSchema) },
  responses: {
    200: jsonContent(scheduleSchema, 'The schedule'),
    400: errorResponse(badSchedule),
    401: errorResponse('Not signed in'),
    404: errorResponse(notYoursTarget),
  },
});

export const deleteScheduleRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/schedules/{id}',
  summary: 'Delete a schedule and its run history',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such schedule of yours'),
  },
});

export const listScheduleRunsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/schedules/{id}/runs',
  summary: 'The occurrences of a schedule, newest first, one page at a time',
  request: { params: idParam, query: listScheduleRunsQuerySchema },
  responses: {
    200: jsonContent(scheduleRunListSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor (`schedules:bad_cursor`)'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such schedule of yours'),
  },
});

export const runScheduleNowRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/schedules/{id}/run-now',
  summary: 'Run a schedule once now',
  description:
    'A manual occurrence at this moment, run as a job like the others (also while paused); its result and mails come as for any occurrence.',
  request: { params: idParam },
  responses: {
    202: jsonContent(scheduleRunSchema, 'The occurrence, running'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such schedule of yours'),
    503: errorResponse('Background jobs are not running (`jobs:unavailable`)'),
  },
});

export const pauseScheduleRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/schedules/{id}/pause',
  summary: 'Pause a schedule',
  request: { params: idParam },
  responses: {
    200: jsonContent(scheduleSchema, 'The schedule, paused'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such schedule of yours'),
  },
});

export const resumeScheduleRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/schedules/{id}/resume',
  summary: 'Resume a paused or turned-off schedule',
  description:
    'Its next run is the first occurrence from now (none missed while paused runs); the failure count and the reason it was turned off are cleared. A plan that shrank since keeps the schedule, but it resumes only within the plan’s limits.',
  request: { params: idParam },
  responses: {
    200: jsonContent(scheduleSchema, 'The schedule, running again'),
    400: errorResponse(
      'It runs more often than your plan now allows (`schedules:too_frequent`); change its expression first',
    ),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such schedule of yours'),
    409: errorResponse(
      'You have more schedules than your plan now keeps (`schedules:too_many`); delete some first',
    ),
  },
});
