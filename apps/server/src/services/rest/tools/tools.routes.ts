import { createRoute, z } from '@hono/zod-openapi';
import {
  createHttpToolSchema,
  httpToolListSchema,
  httpToolSchema,
  httpToolTestResultSchema,
  testHttpToolSchema,
  updateHttpToolSchema,
} from '@chorus/shared/api/tools';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const idParam = z.object({ id: z.string().max(100) });
const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const signedIn = {
  'x-access': 'user' as const,
  tags: ['Tools'],
  security: sessionCookie,
  middleware: [requireUser] as [typeof requireUser],
};

export const listHttpToolsRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/tools',
  summary: 'Your HTTP tools, newest first',
  responses: {
    200: jsonContent(httpToolListSchema, 'Your HTTP tools; secret header values as hints'),
    401: errorResponse('Not signed in'),
  },
});

export const createHttpToolRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/tools',
  summary: 'Describe an HTTP tool',
  description:
    'An endpoint an agent may call: a method, a URL template whose `{name}` placeholders are filled (URL-encoded) from the input, headers (secret ones stored encrypted and never sent back) and the JSON Schema of the input. For GET and DELETE the other input properties go as query parameters, for POST, PUT and PATCH as the JSON body. Its key for an agent is `http:<id>`.',
  request: json(createHttpToolSchema),
  responses: {
    201: jsonContent(httpToolSchema, 'The new tool'),
    400: errorResponse(
      'Invalid fields, a URL template that is not http(s) or names a property the schema lacks, or a secret header without a value',
    ),
    401: errorResponse('Not signed in'),
    409: errorResponse('A tool of yours has this name, or you have as many tools as one may keep'),
  },
});

export const getHttpToolRoute = createRoute({
  ...signedIn,
  method: 'get',
  path: '/tools/{id}',
  summary: 'One of your HTTP tools',
  request: { params: idParam },
  responses: {
    200: jsonContent(httpToolSchema, 'The tool'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such tool of yours'),
  },
});

export const updateHttpToolRoute = createRoute({
  ...signedIn,
  method: 'patch',
  path: '/tools/{id}',
  summary: 'Change an HTTP tool',
  description:
    '`headers`, when sent, replace the stored ones; a secret header sent with a null value keeps the value stored under its name.',
  request: { params: idParam, ...json(updateHttpToolSchema) },
  responses: {
    200: jsonContent(httpToolSchema, 'The tool'),
    400: errorResponse(
      'Invalid fields, a bad URL template, or a new secret header without a value',
    ),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such tool of yours'),
    409: errorResponse('A tool of yours has this name'),
  },
});

export const deleteHttpToolRoute = createRoute({
  ...signedIn,
  method: 'delete',
  path: '/tools/{id}',
  summary: 'Delete an HTTP tool',
  request: { params: idParam },
  responses: {
    204: { description: 'Deleted' },
    401: errorResponse('Not signed in'),
    404: errorResponse('No such tool of yours'),
  },
});

export const testHttpToolRoute = createRoute({
  ...signedIn,
  method: 'post',
  path: '/tools/{id}/test',
  summary: 'Call an HTTP tool once with this input',
  description:
    'Sends the request as an agent would, through the outbound guard (private and local addresses refused unless an admin allowed the host). Answers what was sent, secret header values shown as hints, and what came back; a refusal, timeout or failure is an `error` in the answer, not an error status.',
  request: { params: idParam, ...json(testHttpToolSchema) },
  responses: {
    200: jsonContent(httpToolTestResultSchema, 'The request sent and the response or error'),
    400: errorResponse('Invalid input, or no value for a placeholder of the URL'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such tool of yours'),
  },
});
