import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { searchKnowledge } from '../../../knowledge/search.ts';
import { knowledgeSearchRoute } from './knowledge-search.routes.ts';

export const knowledgeSearchRouter = createRouter<AuthedEnv>().openapi(
  knowledgeSearchRoute,
  async (c) => {
    const body = c.req.valid('json');
    const result = await searchKnowledge(c.var.deps, {
      userId: c.var.user.id,
      baseIds: body.knowledge_base_ids,
      query: body.query,
      topK: body.top_k,
      signal: c.req.raw.signal,
    });
    return c.json(result, 200);
  },
);
