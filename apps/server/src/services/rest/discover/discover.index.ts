import {
  decodeDiscoverCursor,
  DiscoverRepository,
  encodeDiscoverCursor,
} from '../../../db/repositories/discover.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { discoverRoute } from './discover.routes.ts';

export const discoverRouter = createRouter<AuthedEnv>().openapi(discoverRoute, async (c) => {
  const { search, kind, category, tag, sort, limit, cursor } = c.req.valid('query');
  const after = cursor ? decodeDiscoverCursor(cursor, sort) : undefined;
  if (after === null) throw new ApiError(400, 'discover:bad_cursor');
  const repo = new DiscoverRepository(c.var.deps.database.db);
  const [page, facets] = await Promise.all([
    repo.list({
      kind,
      search: search || undefined,
      category: category || undefined,
      tag: tag || undefined,
      sort,
      limit,
      after,
    }),
    repo.facets(),
  ]);
  return c.json(
    {
      items: page.items,
      next_cursor: page.next ? encodeDiscoverCursor(page.next) : null,
      ...facets,
    },
    200,
  );
});
