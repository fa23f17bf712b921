import { createRoute } from '@hono/zod-openapi';
import { clientErrorListSchema } from '@chorus/shared/api/client-errors';
import { pageQuerySchema } from '@chorus/shared/api/paging';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

export const listClientErrorsRoute = createRoute({
  method: 'get',
  path: '/admin/client-errors',
  summary: 'Error reports from browsers, newest first (admins only)',
  ...adminOnly,
  request: { query: pageQuerySchema },
  responses: {
    200: jsonContent(clientErrorListSchema, 'A page of reports and the total count'),
    400: errorResponse('Invalid query'),
    ...adminRefusals,
  },
});
