import { createRoute } from '@hono/zod-openapi';
import { analyticsQuerySchema, analyticsResponseSchema } from '@chorus/shared/api/analytics';
import { errorResponse, jsonContent, sessionCookie } from '../../../../http/openapi.ts';
import { requireRole } from '../../../../http/session.ts';

export const analyticsRoute = createRoute({
  method: 'get',
  path: '/admin/analytics',
  tags: ['Admin'],
  summary: 'Daily active users, messages, AI calls, errors and provider share (admins only)',
  description:
    'Counted from stored rows: messages, usage_events (one per chat or proxy call) and client_errors, per UTC day for the last `days` days including today.',
  security: sessionCookie,
  middleware: [requireRole('admin')] as const,
  request: { query: analyticsQuerySchema },
  responses: {
    200: jsonContent(analyticsResponseSchema, 'One entry per day, oldest first'),
    400: errorResponse('`days` out of range'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Not an admin'),
  },
});
