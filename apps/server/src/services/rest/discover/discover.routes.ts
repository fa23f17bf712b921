import { createRoute } from '@hono/zod-openapi';
import { discoverPageSchema, discoverQuerySchema } from '@chorus/shared/api/discover';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';

export const discoverRoute = createRoute({
  'x-access': 'public',
  method: 'get',
  path: '/discover',
  tags: ['Library'],
  summary:
    'The public directory: published prompts, cookbook scenarios and custom AIs in one list (no sign-in needed)',
  description:
    '`search` looks in the title, description, text and tags; `kind`, `category` and `tag` filter. `sort=newest` (the default) is newest first; `sort=most_used` puts first what the most people copied or ran in the last 30 days, then newest. `uses` counts those people, and is null under 5. Pages by `cursor` (the previous page’s `next_cursor`, with the same filters and sort). `categories` and `tags` are those of every public entry. A custom AI (`kind: custom_ai`) has its `avatar`, no tags, and no uses counted (null); its preview is the start of its instructions. No author or owner is ever shown.',
  request: { query: discoverQuerySchema },
  responses: {
    200: jsonContent(discoverPageSchema, 'A page; pass `next_cursor` as `cursor` for the next'),
    400: errorResponse(
      'Invalid query, or a cursor this server did not write (`discover:bad_cursor`)',
    ),
    429: errorResponse('Too many requests (`rate_limit:exceeded`)'),
  },
});
