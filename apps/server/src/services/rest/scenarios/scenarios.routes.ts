import { createRoute, z } from '@hono/zod-openapi';
import {
  createScenarioSchema,
  listScenarioRunsQuerySchema,
  listScenariosQuerySchema,
  scenarioPageSchema,
  scenarioRunPageSchema,
  scenarioSchema,
  updateScenarioSchema,
} from '@chorus/shared/api/scenarios';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Scenarios'];
const idParam = z.object({ id: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});

export const listScenariosRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/scenarios',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'The signed-in user’s scenarios, newest first, one page at a time',
  description: '`search` looks in titles and descriptions. Cookbook entries are not listed here.',
  request: { query: listScenariosQuerySchema },
  responses: {
    200: jsonContent(scenarioPageSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor (`scenarios:bad_cursor`)'),
    401: errorResponse('Not signed in'),
  },
});

export const createScenarioRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/scenarios',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'Save a scenario: a prompt, its variables and parameters, and the models to compare',
  request: json(createScenarioSchema),
  responses: {
    201: jsonContent(scenarioSchema, 'The new scenario'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    409: errorResponse('As many scenarios as one user may keep (`scenarios:too_many`)'),
  },
});

export const getScenarioRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/scenarios/{id}',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'One of the user’s scenarios',
  request: { params: idParam },
  responses: {
    200: jsonContent(scenarioSchema, 'The scenario'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such scenario of the user (`scenarios:not_found`)'),
  },
});

export const updateScenarioRoute = createRoute({
  'x-access': 'user',
  method: 'patch',
  path: '/scenarios/{id}',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'Change a scenario; send only the fields to change',
  request: { params: idParam, ...json(updateScenarioSchema) },
  responses: {
    200: jsonContent(scenarioSchema, 'The scenario as it is now'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such scenario of the user (`scenarios:not_found`)'),
  },
});

export const deleteScenarioRoute = createRoute({
  'x-access': 'user',
  method: 'delete',
  path: '/scenarios/{id}',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'Delete a scenario; its runs and test cases stay, no longer linked to it',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such scenario of the user (`scenarios:not_found`)'),
  },
});

export const listScenarioRunsRoute = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/scenarios/{id}/runs',
  tags,
  security: sessionCookie,
  middleware: [requireUser] as const,
  summary: 'The runs of a scenario, newest first, one page at a time',
  description:
    'A run still `running` ten minutes after it started is reported as `interrupted` (its server stopped).',
  request: { params: idParam, query: listScenarioRunsQuerySchema },
  responses: {
    200: jsonContent(scenarioRunPageSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor (`scenarios:bad_cursor`)'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such scenario of the user (`scenarios:not_found`)'),
  },
});
