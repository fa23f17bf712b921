import { createRoute } from '@hono/zod-openapi';
import { adminOverviewSchema } from '@chorus/shared/api/admin';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

export const getOverviewRoute = createRoute({
  method: 'get',
  path: '/admin/overview',
  tags: ['Admin'],
  summary: "Today's numbers for the back office overview (admins only)",
  description:
    'Users in total; users active today (a session touched since 00:00 UTC); messages written today; errors today (browser error reports plus assistant replies that ended in an error).',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  responses: {
    200: jsonContent(adminOverviewSchema, 'The numbers'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Not an admin'),
  },
});
