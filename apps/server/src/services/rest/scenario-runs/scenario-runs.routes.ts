import { createRoute, z } from '@hono/zod-openapi';
import {
  rateScenarioRunSchema,
  saveTestCaseSchema,
  scenarioRunSchema,
  testCaseSchema,
} from '@chorus/shared/api/scenarios';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Scenarios'];
const runParam = z.object({ runId: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

export const getScenarioRunRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/scenario-runs/{runId}',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'One run: its prompt as sent and every column’s answer, timings, tokens and cost',
  description:
    'A run still `running` ten minutes after it started is reported as `interrupted` (its server stopped).',
  request: { params: runParam },
  responses: {
    200: jsonContent(scenarioRunSchema, 'The run'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of the user (`scenarios:run_not_found`)'),
  },
});

export const rateScenarioRunRoute = createRoute({
  'x-access': 'user',
  method: 'patch',
  path: '/scenario-runs/{runId}',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'Rate the columns of a run (1–5, null clears) and pick the winner',
  description: '`ratings[i]` rates column `i`; columns left out keep their rating.',
  request: { params: runParam, ...json(rateScenarioRunSchema) },
  responses: {
    200: jsonContent(scenarioRunSchema, 'The run as it is now'),
    400: errorResponse('Invalid input, or a column the run does not have (`scenarios:bad_target`)'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of the user (`scenarios:run_not_found`)'),
  },
});

export const saveTestCaseRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/scenario-runs/{runId}/test-cases',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'Save one column of a run as a test case',
  description:
    'The case keeps the run’s prompt as sent, its system prompt and variables, and the column’s provider and model; its expected output is the column’s answer unless `expected_output` is given.',
  request: { params: runParam, ...json(saveTestCaseSchema) },
  responses: {
    201: jsonContent(testCaseSchema, 'The new test case'),
    400: errorResponse('Invalid input, or a column the run does not have (`scenarios:bad_target`)'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of the user (`scenarios:run_not_found`)'),
  },
});
