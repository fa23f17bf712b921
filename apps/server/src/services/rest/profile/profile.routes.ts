import { createRoute } from '@hono/zod-openapi';
import { profileSchema, profileUpdateSchema } from '@chorus/shared/api/profile';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Profile'];

export const getProfile = createRoute({
  method: 'get',
  path: '/profile',
  tags,
  summary: "The signed-in user's profile with its pricing plan embedded",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(profileSchema, 'The profile; `plan` falls back to Free when unreadable'),
    401: errorResponse('Not signed in'),
  },
});

export const patchProfile = createRoute({
  method: 'patch',
  path: '/profile',
  tags,
  summary: 'Update the full name or the public name',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: profileUpdateSchema } }, required: true },
  },
  responses: {
    200: jsonContent(profileSchema, 'The updated profile'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No profile found to update'),
    409: errorResponse('The public name is taken'),
  },
});
