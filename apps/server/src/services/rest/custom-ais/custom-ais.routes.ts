import { createRoute, z } from '@hono/zod-openapi';
import {
  createCustomAiSchema,
  customAiListSchema,
  customAiSchema,
  updateCustomAiSchema,
} from '@chorus/shared/api/custom-ais';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Custom AIs'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

export const listCustomAisRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/custom-ais',
  summary: 'Your custom AIs, newest first',
  responses: {
    200: jsonContent(customAiListSchema, 'Your custom AIs'),
    401: errorResponse('Not signed in'),
  },
});

export const createCustomAiRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/custom-ais',
  summary: 'Save a custom AI',
  description:
    'A persona: instructions, a provider and model, parameters, conversation starters and knowledge bases (yours). Chats with it run on your keys and quota.',
  request: json(createCustomAiSchema),
  responses: {
    201: jsonContent(customAiSchema, 'The new custom AI'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse('A knowledge base that is not yours'),
    409: errorResponse('As many custom AIs as one may keep'),
  },
});

export const getCustomAiRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/custom-ais/{id}',
  summary: 'One of your custom AIs',
  request: { params: idParam },
  responses: {
    200: jsonContent(customAiSchema, 'The custom AI'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such custom AI of yours'),
  },
});

export const updateCustomAiRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/custom-ais/{id}',
  summary: 'Change a custom AI',
  request: { params: idParam, ...json(updateCustomAiSchema) },
  responses: {
    200: jsonContent(customAiSchema, 'The custom AI'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such custom AI of yours, or a knowledge base that is not yours'),
  },
});

export const deleteCustomAiRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/custom-ais/{id}',
  summary: 'Delete a custom AI (its conversations stay, with a plain model)',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such custom AI of yours'),
  },
});
