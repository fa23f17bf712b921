import { createRoute } from '@hono/zod-openapi';
import { adminUsersQuerySchema, adminUsersResponseSchema } from '@chorus/shared/api/admin';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

export const listUsersRoute = createRoute({
  method: 'get',
  path: '/admin/users',
  tags: ['Admin'],
  summary: 'Users with their statistics, newest registration first (admins only)',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  request: { query: adminUsersQuerySchema },
  responses: {
    200: jsonContent(adminUsersResponseSchema, 'A page of users and the total count'),
    400: errorResponse('Invalid query'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Not an admin'),
  },
});
