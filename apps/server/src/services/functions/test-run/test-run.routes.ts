import { createRoute, z } from '@hono/zod-openapi';
import {
  startTestRunSchema,
  testRunEstimateSchema,
  testRunStatusSchema,
} from '@chorus/shared/api/test-runs';
import { requireUserOrToken } from '../../../http/access-token.ts';
import { errorResponse, jsonContent, sessionOrToken } from '../../../http/openapi.ts';

const idParam = z.object({ id: z.string().max(100) });
const startBody = {
  body: { content: { 'application/json': { schema: startTestRunSchema } }, required: true },
};
/** The session cookie, or a personal access token (`Authorization: Bearer chorus_pat_…`) for CI. */
const callers = {
  'x-access': 'user' as const,
  tags: ['Test runner'],
  security: sessionOrToken,
  middleware: [requireUserOrToken] as [typeof requireUserOrToken],
};
const unauthorised = errorResponse(
  'Not signed in, or an access token that is not valid (`access_tokens:invalid`)',
);
const runNotFound = errorResponse('No such run of yours (`test_runs:not_found`)');

export const startTestRunRoute = createRoute({
  ...callers,
  method: 'post',
  path: '/test-run',
  summary: 'Start a run of one of your test sets',
  description:
    'Runs every case of the set on each target (provider and model), `repeats` times, as a job: a few calls at once per provider, backing off on 429s. The cases and what is under test are kept as they are now, so editing them later changes neither this run nor its results. Calls run on your keys and count against your plan’s daily quota (judge calls too). Poll `GET /functions/v1/test-run/{id}` for progress; once it has ended, its `summary` says whether everything passed and how many cells regressed against the previous finished run — for a CI pipeline, fail on `summary.all_passed === false` or `summary.regressions > 0`. Works with a personal access token.',
  request: startBody,
  responses: {
    202: jsonContent(testRunStatusSchema, 'The queued run'),
    400: errorResponse('Invalid body'),
    401: unauthorised,
    404: errorResponse('No such test set of yours (`test_sets:not_found`)'),
    422: errorResponse(
      'A set with no cases (`test_runs:no_cases`), whose prompt, scenario, custom AI or agent is gone (`test_sets:subject_not_found`), or a run of more than 6,000 calls (`test_runs:too_large`)',
    ),
    429: errorResponse('Two runs of yours are queued or going already (`test_runs:too_many_runs`)'),
    503: errorResponse('Background jobs are not running (`jobs:unavailable`)'),
  },
});

export const estimateTestRunRoute = createRoute({
  ...callers,
  method: 'post',
  path: '/test-run/estimate',
  summary: 'What a run would cost, before starting it',
  description:
    'The calls (judge calls apart), tokens estimated from the cases’ text, the cost from the price table (null when no target’s price is known), the prompts left today on your plan, and the providers you have no usable key for. Nothing is run or counted.',
  request: startBody,
  responses: {
    200: jsonContent(testRunEstimateSchema, 'The estimate'),
    400: errorResponse('Invalid body'),
    401: unauthorised,
    404: errorResponse('No such test set of yours (`test_sets:not_found`)'),
    422: errorResponse(
      'A set with no cases (`test_runs:no_cases`), or whose subject is gone (`test_sets:subject_not_found`)',
    ),
  },
});

export const testRunStatusRoute = createRoute({
  ...callers,
  method: 'get',
  path: '/test-run/{id}',
  summary: 'A run’s status, progress and, once ended, its summary',
  description:
    '`done` of `total` calls so far; `summary` once the run has ended (done, failed or cancelled), with `all_passed` and `regressions` for CI, and `url`, the results page in the app. Works with a personal access token.',
  request: { params: idParam },
  responses: {
    200: jsonContent(testRunStatusSchema, 'The run'),
    401: unauthorised,
    404: runNotFound,
  },
});

export const cancelTestRunRoute = createRoute({
  ...callers,
  method: 'post',
  path: '/test-run/{id}/cancel',
  summary: 'Cancel a queued or running run',
  description:
    'A queued run ends at once; a running one stops its calls within seconds and ends `cancelled`. The results stored so far are kept. Works with a personal access token.',
  request: { params: idParam },
  responses: {
    200: jsonContent(testRunStatusSchema, 'The run, cancelled or stopping'),
    401: unauthorised,
    404: runNotFound,
    409: errorResponse('The run has ended already (`test_runs:finished`)'),
  },
});
