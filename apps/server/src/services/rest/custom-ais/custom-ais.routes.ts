import { createRoute, z } from '@hono/zod-openapi';
import {
  createCustomAiSchema,
  customAiListSchema,
  customAiSchema,
  shareCustomAiSchema,
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
  summary: 'One of your custom AIs, or a published one of someone else',
  description:
    'A published custom AI of someone else answers with `owned: false`: its instructions (public once published), but not its knowledge bases (`knowledge_base_ids` is empty).',
  request: { params: idParam },
  responses: {
    200: jsonContent(customAiSchema, 'The custom AI'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such custom AI of yours, nor a published one'),
  },
});

export const updateCustomAiRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/custom-ais/{id}',
  summary: 'Change a custom AI',
  description:
    'A change others would see (anything but its knowledge bases) to a published custom AI sends it back for review (`share_status: submitted`): it leaves /discover until an admin publishes it again.',
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

export const shareCustomAiRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/custom-ais/{id}/share',
  summary: 'Ask for a custom AI to be published in /discover',
  description:
    'It waits for review (`share_status: submitted`) until an admin publishes it or sends it back with a note. Once published, everyone can read its instructions and talk to it, on their own keys and quota; its knowledge bases stay yours and are never searched for them.',
  request: { params: idParam, ...json(shareCustomAiSchema) },
  responses: {
    200: jsonContent(customAiSchema, 'The custom AI, waiting for review'),
    400: errorResponse('Invalid fields'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such custom AI of yours'),
    409: errorResponse('Already published (`custom_ais:already_published`)'),
  },
});

export const unshareCustomAiRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/custom-ais/{id}/share',
  summary: 'Stop sharing a custom AI: private again, and out of /discover',
  request: { params: idParam },
  responses: {
    200: jsonContent(customAiSchema, 'The custom AI, private'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such custom AI of yours'),
  },
});
