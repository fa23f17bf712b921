import { createRoute } from '@hono/zod-openapi';
import { analyticsQuerySchema, analyticsResponseSchema } from '@chorus/shared/api/analytics';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

export const analyticsRoute = createRoute({
  method: 'get',
  path: '/admin/analytics',
  summary: 'Daily active users, messages, AI calls, errors and provider share (admins only)',
  description:
    'Counted from stored rows: messages, usage_events (one per chat or proxy call) and client_errors, per UTC day for the last `days` days including today.',
  ...adminOnly,
  request: { query: analyticsQuerySchema },
  responses: {
    200: jsonContent(analyticsResponseSchema, 'One entry per day, oldest first'),
    400: errorResponse('`days` out of range'),
    ...adminRefusals,
  },
});
