import { createRoute, z } from '@hono/zod-openapi';
import {
  createWorkflowSchema,
  listWorkflowRunsQuerySchema,
  updateWorkflowSchema,
  workflowListSchema,
  workflowRunListSchema,
  workflowRunSchema,
  workflowSaveErrorSchema,
  workflowSchema,
  workflowVersionListSchema,
} from '@chorus/shared/api/workflows';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const runParam = z.object({ runId: z.string().max(100) });
const versionParams = z.object({ id: z.string().max(100), version: z.string().max(20) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Workflows'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};
const refusedSave = jsonContent(
  workflowSaveErrorSchema,
  'Invalid fields; or a step that uses a variable that is neither an input nor an earlier step (`workflows:unknown_reference`), a repeated step id (`workflows:duplicate_step`), a condition that is not CEL (`workflows:bad_condition`) or a step not set up (`workflows:bad_step`), with the step and field in `details`',
);
const notYours = errorResponse(
  'No such workflow of yours, or a custom AI, agent, knowledge base or HTTP tool a step names that is not yours',
);

export const listWorkflowsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/workflows',
  summary: 'Your workflows, newest first',
  responses: {
    200: jsonContent(workflowListSchema, 'Your workflows'),
    401: errorResponse('Not signed in'),
  },
});

export const createWorkflowRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/workflows',
  summary: 'Save a workflow',
  description:
    'A linear pipeline of steps with typed inputs. Steps read `{{inputs.name}}` and `{{steps.<id>.output}}` of earlier steps; conditions are CEL. It starts at version 1.',
  request: json(createWorkflowSchema),
  responses: {
    201: jsonContent(workflowSchema, 'The new workflow'),
    400: refusedSave,
    401: errorResponse('Not signed in'),
    404: notYours,
    409: errorResponse('As many workflows as one may keep (`workflows:too_many`)'),
  },
});

export const getWorkflowRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/workflows/{id}',
  summary: 'One of your workflows',
  request: { params: idParam },
  responses: {
    200: jsonContent(workflowSchema, 'The workflow'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such workflow of yours'),
  },
});

export const updateWorkflowRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/workflows/{id}',
  summary: 'Change a workflow (a new version)',
  description: 'Each change saves a new version; a change that changes nothing keeps the version.',
  request: { params: idParam, ...json(updateWorkflowSchema) },
  responses: {
    200: jsonContent(workflowSchema, 'The workflow'),
    400: refusedSave,
    401: errorResponse('Not signed in'),
    404: notYours,
  },
});

export const deleteWorkflowRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/workflows/{id}',
  summary: 'Delete a workflow, its versions and its runs',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such workflow of yours'),
  },
});

export const listWorkflowVersionsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/workflows/{id}/versions',
  summary: "A workflow's saved versions, newest first",
  request: { params: idParam },
  responses: {
    200: jsonContent(workflowVersionListSchema, 'The versions'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such workflow of yours'),
  },
});

export const restoreWorkflowVersionRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/workflows/{id}/versions/{version}/restore',
  summary: 'Make a workflow what one of its versions was (a new version)',
  description:
    'History is never rewritten: the restored fields become the newest version. What its steps name must still be yours.',
  request: { params: versionParams },
  responses: {
    200: jsonContent(workflowSchema, 'The workflow'),
    400: refusedSave,
    401: errorResponse('Not signed in'),
    404: errorResponse(
      'No such workflow of yours, no such version (`workflows:version_not_found`), or something a step names that is no longer yours',
    ),
  },
});

export const listWorkflowRunsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/workflows/{id}/runs',
  summary: 'The runs of a workflow, newest first, with every step, one page at a time',
  request: { params: idParam, query: listWorkflowRunsQuerySchema },
  responses: {
    200: jsonContent(workflowRunListSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor (`workflows:bad_cursor`)'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such workflow of yours'),
  },
});

export const getWorkflowRunRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/workflow-runs/{runId}',
  summary: 'One run, with each step’s status, output, tokens, cost and duration (poll it live)',
  request: { params: runParam },
  responses: {
    200: jsonContent(workflowRunSchema, 'The run'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of yours (`workflows:run_not_found`)'),
  },
});

export const cancelWorkflowRunRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/workflow-runs/{runId}/cancel',
  summary: 'Cancel a run',
  description:
    'A queued run is cancelled at once; a running one stops within about a second, its current model call aborted.',
  request: { params: runParam },
  responses: {
    200: jsonContent(workflowRunSchema, 'The run'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of yours (`workflows:run_not_found`)'),
    409: errorResponse('The run has ended (`workflows:run_finished`)'),
  },
});

export const retryWorkflowRunRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/workflow-runs/{runId}/retry',
  summary: 'Retry a failed run from its failed step',
  description:
    'The steps done before keep their outputs; the failed step and those after it run again, with the definition of the version the run ran.',
  request: { params: runParam },
  responses: {
    202: jsonContent(workflowRunSchema, 'The run, queued again'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of yours (`workflows:run_not_found`)'),
    409: errorResponse('The run did not fail (`workflows:run_not_failed`)'),
  },
});
