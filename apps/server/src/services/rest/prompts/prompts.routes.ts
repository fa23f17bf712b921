import { createRoute, z } from '@hono/zod-openapi';
import {
  createPromptSchema,
  listPromptsQuerySchema,
  promptExportSchema,
  promptImportResultSchema,
  promptImportSchema,
  promptPageSchema,
  promptSchema,
  promptVersionsSchema,
  renderedPromptSchema,
  renderPromptSchema,
  sharePromptSchema,
  updatePromptSchema,
} from '@chorus/shared/api/prompts';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Prompts'];
const idParam = z.object({ id: z.string().max(100) });
const versionParams = z.object({
  id: z.string().max(100),
  version: z.coerce
    .number({ error: 'The version must be a number' })
    .int('The version must be a whole number')
    .min(1, 'Versions are numbered from 1')
    .max(1_000_000_000, 'No such version'),
});
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags,
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

export const listPromptsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/prompts',
  summary: 'The signed-in user’s prompts, newest first, one page at a time',
  description:
    '`search` looks in the title, description, content and tags; `category` and `favorite` filter. The answer also lists every category the user’s prompts have.',
  request: { query: listPromptsQuerySchema },
  responses: {
    200: jsonContent(promptPageSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse('Invalid query or cursor'),
    401: errorResponse('Not signed in'),
  },
});

export const createPromptRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/prompts',
  summary: 'Save a new prompt (its version 1)',
  description:
    'Title and content are required; `{{name}}` and `{{name|default}}` in any field are variables.',
  request: json(createPromptSchema),
  responses: {
    201: jsonContent(promptSchema, 'The new prompt'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    409: errorResponse('The user already has as many prompts as a library holds'),
  },
});

export const exportPromptsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/prompts/export',
  summary: 'Download every prompt of the user as a JSON file',
  description:
    'An attachment named `chorus-prompts-YYYY-MM-DD.json`, version 1 of the `chorus.prompts` format, which `POST /prompts/import` takes back.',
  responses: {
    200: jsonContent(promptExportSchema, 'The prompts as a file'),
    401: errorResponse('Not signed in'),
  },
});

export const importPromptsRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/prompts/import',
  summary: 'Add the prompts of an export file to the user’s library',
  description:
    'Each row is checked on its own: the valid ones are saved (each as version 1, all in one transaction) as far as the library has room, and every refused row is answered with its place in the file (from 1), its title when readable and why.',
  request: json(promptImportSchema),
  responses: {
    200: jsonContent(promptImportResultSchema, 'How many were imported, and the rows refused'),
    400: errorResponse('Not a prompt export'),
    401: errorResponse('Not signed in'),
  },
});

export const getPromptRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/prompts/{id}',
  summary: 'One of the user’s prompts',
  request: { params: idParam },
  responses: {
    200: jsonContent(promptSchema, 'The prompt'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt'),
  },
});

export const updatePromptRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/prompts/{id}',
  summary: 'Edit a prompt, or mark it a favourite',
  description:
    'A change of title, content, description, category or tags saves a new version; a published prompt so changed leaves the public library until an admin approves it again. `favorite` alone changes no version.',
  request: { params: idParam, ...json(updatePromptSchema) },
  responses: {
    200: jsonContent(promptSchema, 'The prompt as it is now'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt'),
  },
});

export const deletePromptRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/prompts/{id}',
  summary: 'Delete a prompt with its versions (and take it out of the public library)',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt'),
  },
});

export const renderPromptRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/prompts/{id}/render',
  summary: 'The prompt with its variables filled in',
  description:
    'Each `{{name}}` takes its value, else its default; values are inserted as written and never read as templates. A variable with neither is refused, naming it.',
  request: { params: idParam, ...json(renderPromptSchema) },
  responses: {
    200: jsonContent(renderedPromptSchema, 'Title, content and description, filled in'),
    400: errorResponse('Invalid input, or a variable without a value'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt'),
  },
});

export const listPromptVersionsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/prompts/{id}/versions',
  summary: 'Every saved version of a prompt, newest first',
  request: { params: idParam },
  responses: {
    200: jsonContent(promptVersionsSchema, 'The versions'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt'),
  },
});

export const restorePromptVersionRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/prompts/{id}/versions/{version}/restore',
  summary: 'Save an earlier version of a prompt again, as its newest version',
  request: { params: versionParams },
  responses: {
    200: jsonContent(promptSchema, 'The prompt as it is now'),
    400: errorResponse('Malformed version number'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt or version'),
  },
});

export const sharePromptRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/prompts/{id}/share',
  summary: 'Submit a prompt to the public library, or withdraw it',
  description:
    '`public: true` puts it in the admins’ curation queue (it is listed publicly once approved); `public: false` withdraws it, and takes it out of the library if it was published.',
  request: { params: idParam, ...json(sharePromptSchema) },
  responses: {
    200: jsonContent(promptSchema, 'The prompt as it is now'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such prompt'),
  },
});
