import { createRoute } from '@hono/zod-openapi';
import {
  startWorkflowRunSchema,
  workflowDryRunResultSchema,
  workflowDryRunSchema,
  workflowRunSchema,
  workflowSaveErrorSchema,
} from '@chorus/shared/api/workflows';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const signedIn = {
  'x-access': 'user' as const,
  tags: ['Workflows'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

export const startWorkflowRunRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/workflow-run',
  summary: 'Start a run of one of your workflows',
  description:
    'Checks the inputs against the workflow’s typed inputs, stores a queued run of the latest version (or `version`) and starts it as a job. Poll `/rest/v1/workflow-runs/{runId}` for live progress. Model calls run on your keys and count against your plan’s quota.',
  request: {
    body: { content: { 'application/json': { schema: startWorkflowRunSchema } }, required: true },
  },
  responses: {
    202: jsonContent(workflowRunSchema, 'The queued run'),
    400: errorResponse(
      'Invalid body, a required input left out (`workflows:missing_input`) or one of the wrong type (`workflows:bad_input`)',
    ),
    401: errorResponse('Not signed in'),
    404: errorResponse(
      'No such workflow of yours (`workflows:not_found`), or no such version (`workflows:version_not_found`)',
    ),
  },
});

export const dryRunWorkflowRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/workflow-dry-run',
  summary: 'Run a draft workflow at once with sample inputs',
  description:
    'The same checks as a save, then the same engine as a run, answered when it ends. Nothing is stored but the usage of its model calls.',
  request: {
    body: { content: { 'application/json': { schema: workflowDryRunSchema } }, required: true },
  },
  responses: {
    200: jsonContent(workflowDryRunResultSchema, 'Every step’s result'),
    400: jsonContent(
      workflowSaveErrorSchema,
      'Invalid body or inputs, or a draft a save would refuse (the step and field in `details`)',
    ),
    401: errorResponse('Not signed in'),
    404: errorResponse(
      'A custom AI, agent, knowledge base or HTTP tool a step names that is not yours',
    ),
  },
});
