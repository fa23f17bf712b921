import { searchWords } from '@chorus/shared/message-search';
import { MessageSearchRepository } from '../../../db/repositories/message-search.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { searchMessagesRoute } from './message-search.routes.ts';

export const messageSearchRouter = createRouter<AuthedEnv>().openapi(
  searchMessagesRoute,
  async (c) => {
    const { q, limit } = c.req.valid('query');
    const rows = await new MessageSearchRepository(c.var.deps.database.db, c.var.user.id).search(
      searchWords(q),
      limit,
    );
    return c.json(
      { hits: rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() })) },
      200,
    );
  },
);
