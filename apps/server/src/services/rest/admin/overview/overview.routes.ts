import { createRoute } from '@hono/zod-openapi';
import { adminOverviewSchema } from '@chorus/shared/api/admin';
import { jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

export const getOverviewRoute = createRoute({
  method: 'get',
  path: '/admin/overview',
  summary: "Today's numbers for the back office overview (admins only)",
  description:
    'Users in total; users active today (a session touched since 00:00 UTC); messages written today; errors today (browser error reports plus assistant replies that ended in an error).',
  ...adminOnly,
  responses: {
    200: jsonContent(adminOverviewSchema, 'The numbers'),
    ...adminRefusals,
  },
});
