import { createRoute } from '@hono/zod-openapi';
import { adminUsersQuerySchema } from '@chorus/shared/api/admin';
import { clientErrorListSchema } from '@chorus/shared/api/client-errors';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

export const listClientErrorsRoute = createRoute({
  method: 'get',
  path: '/admin/client-errors',
  tags: ['Admin'],
  summary: 'Error reports from browsers, newest first (admins only)',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  request: { query: adminUsersQuerySchema.pick({ limit: true, offset: true }) },
  responses: {
    200: jsonContent(clientErrorListSchema, 'A page of reports and the total count'),
    400: errorResponse('Invalid query'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Not an admin'),
  },
});
