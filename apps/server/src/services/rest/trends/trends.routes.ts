import { createRoute } from '@hono/zod-openapi';
import { trendsSchema } from '@chorus/shared/api/trends';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';

export const trendsRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/trends',
  tags: ['Library'],
  summary: 'This instance’s trends: most-copied public prompts and most-run cookbook scenarios',
  description:
    'At most 10 entries each, over the last 7 and 30 days. A count is the number of distinct people (one person copying a prompt many times counts once): prompts by who copied them from the library, scenarios by who ran a copy of them. Only entries published now; titles and counts only; counts under `min_count` (5) are left out. Counted at most once a minute.',
  responses: {
    200: jsonContent(trendsSchema, 'The aggregates'),
    429: errorResponse('Too many requests (`rate_limit:exceeded`)'),
  },
});
