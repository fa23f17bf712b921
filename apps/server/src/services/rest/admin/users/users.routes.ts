import { createRoute, z } from '@hono/zod-openapi';
import {
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  patchAdminUserSchema,
  userStatisticsRowSchema,
} from '@chorus/shared/api/admin';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

export const listUsersRoute = createRoute({
  method: 'get',
  path: '/admin/users',
  summary: 'Users with their statistics, newest registration first (admins only)',
  ...adminOnly,
  request: { query: adminUsersQuerySchema },
  responses: {
    200: jsonContent(adminUsersResponseSchema, 'A page of users, the total count and the plans'),
    400: errorResponse('Invalid query'),
    ...adminRefusals,
  },
});

export const patchUserRoute = createRoute({
  method: 'patch',
  path: '/admin/users/{id}',
  summary: "Change a user's plan, role, or suspension; written to the audit log",
  description:
    'Send exactly one of `plan_id`, `role` or `suspended`. Admins move users between user and admin; only super admins grant or remove super_admin and suspend admins. Nobody changes their own role or suspends themselves, and the last active super admin stays. Suspension ends all of the user’s sessions at once and refuses their sign-in.',
  ...adminOnly,
  request: {
    params: z.object({ id: z.string().min(1).max(100) }),
    body: { content: { 'application/json': { schema: patchAdminUserSchema } }, required: true },
  },
  responses: {
    200: jsonContent(userStatisticsRowSchema, 'The user as the list shows them now'),
    400: errorResponse('Malformed body'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Not an admin, or a change the role rules forbid'),
    404: errorResponse('No such user or plan'),
    409: errorResponse('The last super admin cannot be demoted or suspended'),
  },
});
