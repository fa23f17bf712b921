import { createRoute, z } from '@hono/zod-openapi';
import {
  exportQuerySchema,
  testResultListSchema,
  testResultsQuerySchema,
  testRunListQuerySchema,
  testRunListSchema,
  testRunMatrixQuerySchema,
  testRunMatrixSchema,
} from '@chorus/shared/api/test-runs';
import { requireUserOrToken } from '../../../http/access-token.ts';
import {
  errorResponse,
  jsonContent,
  sessionCookie,
  sessionOrToken,
} from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Test runner'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};
const notSignedIn = errorResponse('Not signed in');
const runNotFound = errorResponse('No such run of yours (`test_runs:not_found`)');

export const listTestRunsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/test-runs',
  summary: 'Your test runs, newest first',
  description:
    'Pass `test_set_id` for one set’s runs, and `cursor` (`next_cursor`) for the next page.',
  request: { query: testRunListQuerySchema },
  responses: {
    200: jsonContent(testRunListSchema, 'A page of runs'),
    400: errorResponse(
      'Invalid query, or a cursor this server did not write (`test_runs:bad_cursor`)',
    ),
    401: notSignedIn,
  },
});

export const testRunMatrixRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/test-runs/{id}',
  summary: 'A run and its matrix of cases × targets',
  description:
    'Each cell is one case on one target over its repeats: pass rate, each assertion’s passes and last failure’s reason, latency p50/p95, tokens and cost; `totals` per target. With `compare_to` (another run of the same set), each cell is marked regressed, improved, same or new against it, targets matched by provider and model.',
  request: { params: idParam, query: testRunMatrixQuerySchema },
  responses: {
    200: jsonContent(testRunMatrixSchema, 'The run and its matrix'),
    400: errorResponse('Invalid query'),
    401: notSignedIn,
    404: errorResponse(
      'No such run of yours, or no such run to compare with (`test_runs:not_found`)',
    ),
    422: errorResponse('`compare_to` is a run of another set (`test_runs:other_set`)'),
  },
});

export const testRunResultsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/test-runs/{id}/results',
  summary: 'One cell’s results in full',
  description:
    'Every repeat of one case on one target: the message sent, the whole output, and each assertion’s verdict.',
  request: { params: idParam, query: testResultsQuerySchema },
  responses: {
    200: jsonContent(testResultListSchema, 'The cell’s results, by repeat'),
    400: errorResponse('Invalid query'),
    401: notSignedIn,
    404: runNotFound,
  },
});

export const exportTestRunRoute = createRoute({
  'x-access': 'user' as const,
  tags: ['Test runner'],
  security: sessionOrToken,
  middleware: [requireUserOrToken] as [typeof requireUserOrToken],
  method: 'get',
  path: '/test-runs/{id}/export',
  summary: 'Download a run’s results as CSV or JSON',
  description:
    'CSV: one row per result (case, provider, model, repeat, passed, error, latency, tokens, cost, each assertion’s verdict and reason, output); cells that a spreadsheet would read as a formula start with a quote. JSON: the run, its cases as they were, and every result. Works with a personal access token.',
  request: { params: idParam, query: exportQuerySchema },
  responses: {
    200: {
      description: 'The results, as an attachment',
      content: {
        'application/json': { schema: { type: 'object' } },
        'text/csv': { schema: { type: 'string' } },
      },
    },
    400: errorResponse('Invalid format'),
    401: errorResponse(
      'Not signed in, or an access token that is not valid (`access_tokens:invalid`)',
    ),
    404: runNotFound,
  },
});

export const deleteTestRunRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/test-runs/{id}',
  summary: 'Delete a run that has ended, with its results',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: notSignedIn,
    404: runNotFound,
    409: errorResponse('The run is queued or going (`test_runs:active`): cancel it first'),
  },
});
