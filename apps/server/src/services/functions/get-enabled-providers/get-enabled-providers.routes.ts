import { createRoute } from '@hono/zod-openapi';
import { enabledProvidersSchema } from '@chorus/shared/api/keys';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const getEnabledProvidersRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/get-enabled-providers',
  tags: ['Keys'],
  summary: 'The providers an admin has not disabled, in catalogue order',
  description: 'Cached on the server for 60 s; an admin change takes effect at once.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(enabledProvidersSchema, 'Enabled providers'),
    401: errorResponse('Not signed in'),
  },
});
