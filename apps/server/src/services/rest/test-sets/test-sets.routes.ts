import { createRoute, z } from '@hono/zod-openapi';
import { apiErrorSchema } from '@chorus/shared/api/errors';
import {
  createTestCaseSchema,
  createTestSetSchema,
  fileTestCasesSchema,
  importTestCasesResultSchema,
  importTestCasesSchema,
  testSetCaseListSchema,
  testSetCaseSchema,
  testSetListSchema,
  testSetSchema,
  updateTestCaseSchema,
  updateTestSetSchema,
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
const caseParams = z.object({ id: z.string().max(100), caseId: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Test runner'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};
const noSet = errorResponse('No such test set of yours (`test_sets:not_found`)');
const noCase = errorResponse(
  'No such test set of yours (`test_sets:not_found`), or no such case in it (`test_sets:case_not_found`)',
);
const tooManyCases = errorResponse(
  'The set would hold more than 500 cases (`test_sets:too_many_cases`)',
);

/** The answer to filing cases into a set. */
export const filedTestCasesSchema = z.object({
  /** Cases moved into the set: unfiled ones of yours among those named. */
  filed: z.number(),
});

/** A refused import: the message names the first bad row, `errors` lists them (up to 100). */
export const refusedImportSchema = apiErrorSchema.extend({
  imported: z.literal(0),
  errors: importTestCasesResultSchema.shape.errors,
});

export const listTestSetsRoute = createRoute({
  'x-access': 'user',
  tags: ['Test runner'],
  security: sessionOrToken,
  middleware: [requireUserOrToken] as [typeof requireUserOrToken],
  method: 'get',
  path: '/test-sets',
  summary: 'Your test sets, newest first, each with its case count and last run',
  description:
    'Also answers to a personal access token (`Authorization: Bearer chorus_pat_…`), so a CI pipeline can find the id of the set it runs.',
  responses: {
    200: jsonContent(testSetListSchema, 'Your test sets'),
    401: errorResponse(
      'Not signed in, or an access token that is mistyped, expired or revoked (`access_tokens:invalid`)',
    ),
  },
});

export const createTestSetRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/test-sets',
  summary: 'Make a test set',
  description:
    'What is under test (`subject`) is one of your saved prompts, scenarios, custom AIs or agents. `targets` and `repeats` are what the run dialog offers first.',
  request: json(createTestSetSchema),
  responses: {
    201: jsonContent(testSetSchema, 'The new test set'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse(
      'The subject is not one of yours, or no longer exists (`test_sets:subject_not_found`)',
    ),
    409: errorResponse('As many test sets as one may keep (`test_sets:too_many`)'),
  },
});

export const getTestSetRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/test-sets/{id}',
  summary: 'One of your test sets',
  description:
    '`subject_name` is null when the subject was deleted since: the set cannot run until another is picked.',
  request: { params: idParam },
  responses: {
    200: jsonContent(testSetSchema, 'The test set'),
    401: errorResponse('Not signed in'),
    404: noSet,
  },
});

export const updateTestSetRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/test-sets/{id}',
  summary: 'Change a test set',
  description: 'Runs made before keep the cases and subject they ran with.',
  request: { params: idParam, ...json(updateTestSetSchema) },
  responses: {
    200: jsonContent(testSetSchema, 'The test set'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse(
      'No such test set of yours (`test_sets:not_found`), or a subject that is not yours (`test_sets:subject_not_found`)',
    ),
  },
});

export const deleteTestSetRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/test-sets/{id}',
  summary: 'Delete a test set, its cases and its runs',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: noSet,
  },
});

export const listTestSetCasesRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/test-sets/{id}/cases',
  summary: 'The cases of a test set, in order',
  request: { params: idParam },
  responses: {
    200: jsonContent(testSetCaseListSchema, 'The cases, by position'),
    401: errorResponse('Not signed in'),
    404: noSet,
  },
});

export const createTestSetCaseRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/test-sets/{id}/cases',
  summary: 'Add a case at the end of a test set',
  description:
    'For a saved prompt or scenario the message is its template filled with `variables`; for a custom AI or agent it is `input` (variables filled in too). Regex patterns are RE2 syntax.',
  request: { params: idParam, ...json(createTestCaseSchema) },
  responses: {
    201: jsonContent(testSetCaseSchema, 'The new case'),
    400: errorResponse('Invalid fields, or a regex pattern RE2 cannot use'),
    401: errorResponse('Not signed in'),
    404: noSet,
    409: tooManyCases,
  },
});

export const updateTestSetCaseRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/test-sets/{id}/cases/{caseId}',
  summary: 'Change a case',
  request: { params: caseParams, ...json(updateTestCaseSchema) },
  responses: {
    200: jsonContent(testSetCaseSchema, 'The case'),
    400: errorResponse('Invalid fields, or a regex pattern RE2 cannot use'),
    401: errorResponse('Not signed in'),
    404: noCase,
  },
});

export const deleteTestSetCaseRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/test-sets/{id}/cases/{caseId}',
  summary: 'Delete a case',
  request: { params: caseParams },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: noCase,
  },
});

export const importTestSetCasesRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/test-sets/{id}/cases/import',
  summary: 'Add cases from a CSV or JSON file',
  description:
    'CSV: a header row; `name`, `input`, `expected_output` and `assertions` (a JSON array) are read as such, `assert`, `assert_2`, … as shorthand assertions (`contains:text`, `not-contains:text`, `regex:pattern`, `equals:text`, `is-json`, `judge:rubric`, `max-length:N`, `latency:N`), every other column is a variable. JSON: an array of `{ name, input?, variables?, expected_output?, assertions? }`. `judge:` shorthand needs `judge` (the model that grades). All rows or none: if any row is refused, nothing is imported.',
  request: { params: idParam, ...json(importTestCasesSchema) },
  responses: {
    201: jsonContent(importTestCasesResultSchema, 'Every case was imported'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: noSet,
    409: tooManyCases,
    413: errorResponse('The request body is over 8 MB'),
    422: jsonContent(
      refusedImportSchema,
      'Rows that could not be imported (`test_sets:bad_import`), so none was: the message names the first, `errors` lists them',
    ),
  },
});

export const fileTestSetCasesRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/test-sets/{id}/cases/file',
  summary: 'Move saved, unfiled cases into a test set',
  description:
    'Cases saved from scenario columns belong to no set until filed. Ids of cases that are filed already, or not yours, are passed over.',
  request: { params: idParam, ...json(fileTestCasesSchema) },
  responses: {
    200: jsonContent(filedTestCasesSchema, 'How many cases were filed'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: noSet,
    409: tooManyCases,
  },
});
