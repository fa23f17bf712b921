import { createRoute } from '@hono/zod-openapi';
import {
  usageStatisticsQuerySchema,
  usageStatisticsResponseSchema,
} from '@chorus/shared/api/usage';
import { errorResponse } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

export const usageStatisticsRoute = createRoute({
  method: 'get',
  path: '/admin/usage-statistics',
  summary: 'Prompts per user per day and tokens per provider and model in a date range (admins)',
  description:
    '`from` and `to` are UTC dates, inclusive, at most 366 days apart; they default to the last 30 days. `format=csv` answers a CSV download of `table` (`prompt_usage`, the default, or `tokens`).',
  ...adminOnly,
  request: { query: usageStatisticsQuerySchema },
  responses: {
    200: {
      description: 'The statistics, as JSON or as a CSV attachment',
      content: {
        'application/json': { schema: usageStatisticsResponseSchema },
        'text/csv': { schema: { type: 'string' } },
      },
    },
    400: errorResponse('Bad dates or a range over 366 days'),
    ...adminRefusals,
  },
});
