import { createRoute, z } from '@hono/zod-openapi';
import {
  agentListSchema,
  agentSchema,
  agentVersionListSchema,
  createAgentSchema,
  updateAgentSchema,
} from '@chorus/shared/api/agents';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const versionParams = z.object({ id: z.string().max(100), version: z.string().max(20) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Agents'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

export const listAgentsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/agents',
  summary: 'Your agents, newest first',
  responses: {
    200: jsonContent(agentListSchema, 'Your agents'),
    401: errorResponse('Not signed in'),
  },
});

export const createAgentRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/agents',
  summary: 'Save an agent',
  description:
    'A custom AI with tools: instructions, a provider and model, a step limit, tools (built-in ones and yours) with their approval policy, and knowledge bases (yours). It starts at version 1; `@handle` comes from its name.',
  request: json(createAgentSchema),
  responses: {
    201: jsonContent(agentSchema, 'The new agent'),
    400: errorResponse('Invalid fields, or a tool that is not yours'),
    401: errorResponse('Not signed in'),
    404: errorResponse('A knowledge base that is not yours'),
    409: errorResponse('As many agents as one may keep, or another agent with the same @handle'),
  },
});

export const getAgentRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/agents/{id}',
  summary: 'One of your agents',
  request: { params: idParam },
  responses: {
    200: jsonContent(agentSchema, 'The agent'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such agent of yours'),
  },
});

export const updateAgentRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/agents/{id}',
  summary: 'Change an agent (a new version)',
  description: 'Each change saves a new version; a change that changes nothing keeps the version.',
  request: { params: idParam, ...json(updateAgentSchema) },
  responses: {
    200: jsonContent(agentSchema, 'The agent'),
    400: errorResponse('Invalid fields, or a tool that is not yours'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such agent of yours, or a knowledge base that is not yours'),
    409: errorResponse('Another agent with the same @handle'),
  },
});

export const deleteAgentRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/agents/{id}',
  summary: 'Delete an agent and its versions',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such agent of yours'),
  },
});

export const listAgentVersionsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/agents/{id}/versions',
  summary: "An agent's saved versions, newest first",
  request: { params: idParam },
  responses: {
    200: jsonContent(agentVersionListSchema, 'The versions'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such agent of yours'),
  },
});

export const restoreAgentVersionRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/agents/{id}/versions/{version}/restore',
  summary: 'Make an agent what one of its versions was (a new version)',
  description:
    'History is never rewritten: the restored fields become the newest version. Its tools and knowledge bases must still be yours.',
  request: { params: versionParams },
  responses: {
    200: jsonContent(agentSchema, 'The agent'),
    400: errorResponse('A tool of that version that is no longer yours'),
    401: errorResponse('Not signed in'),
    404: errorResponse(
      'No such agent of yours, no such version, or a knowledge base that is no longer yours',
    ),
    409: errorResponse('Another agent has the @handle of that version'),
  },
});
