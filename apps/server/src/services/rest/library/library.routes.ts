import { createRoute, z } from '@hono/zod-openapi';
import {
  libraryPromptsResponseSchema,
  libraryScenariosResponseSchema,
} from '@chorus/shared/api/library';
import { promptSchema } from '@chorus/shared/api/prompts';
import { scenarioSchema } from '@chorus/shared/api/scenarios';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const libraryPromptsRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/library/prompts',
  tags: ['Library'],
  summary: 'The public prompt library: published prompts, featured first (no sign-in needed)',
  responses: { 200: jsonContent(libraryPromptsResponseSchema, 'Published prompts') },
});

export const libraryScenariosRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/library/scenarios',
  tags: ['Library'],
  summary: 'The scenarios cookbook: published scenarios, featured first (no sign-in needed)',
  responses: { 200: jsonContent(libraryScenariosResponseSchema, 'Published scenarios') },
});

export const copyLibraryPromptRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/library/prompts/{id}/copy',
  tags: ['Library'],
  summary: 'Copy a published prompt into the signed-in user’s prompts, as a new private prompt',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: z.string().max(100) }) },
  responses: {
    201: jsonContent(promptSchema, 'The copy, at its version 1'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such published prompt'),
    409: errorResponse('The user already has as many prompts as a library holds'),
  },
});

export const copyLibraryScenarioRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/library/scenarios/{id}/copy',
  tags: ['Library'],
  summary: 'Copy a published cookbook scenario into the signed-in user’s scenarios',
  description:
    'The copy keeps the title, description, category, prompts, variables, parameters and models; an entry that names no models compares OpenAI’s default model until the user picks others.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { params: z.object({ id: z.string().max(100) }) },
  responses: {
    201: jsonContent(scenarioSchema, 'The copy, one of the user’s scenarios'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such published scenario (`library:not_found`)'),
    409: errorResponse(
      'The user already keeps as many scenarios as allowed (`scenarios:too_many`)',
    ),
  },
});
