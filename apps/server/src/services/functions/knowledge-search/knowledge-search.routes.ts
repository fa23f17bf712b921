import { createRoute } from '@hono/zod-openapi';
import { knowledgeSearchResultSchema, knowledgeSearchSchema } from '@chorus/shared/api/knowledge';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const knowledgeSearchRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/knowledge-search',
  tags: ['Knowledge base'],
  summary: 'Hybrid search over your knowledge bases: vectors and full text, fused by rank',
  description:
    'Each base is searched by full text (PostgreSQL `tsvector`, passages holding every word of the query first, then those holding some, ranked by `ts_rank`) and, when it has an embedding model and the server has vector search, by cosine similarity to the query’s embedding (made on your key and quota). The two rankings are fused with reciprocal rank fusion (k = 60). Each result says which method found it, with each method’s rank and score. Ids of bases that are not yours answer 404.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: knowledgeSearchSchema } }, required: true },
  },
  responses: {
    200: jsonContent(knowledgeSearchResultSchema, 'The ranked passages'),
    400: errorResponse('Invalid input, or no key for a base’s embedding provider'),
    401: errorResponse('Not signed in'),
    403: errorResponse('Refused by the plan'),
    404: errorResponse('A knowledge base that is not yours, or does not exist'),
    429: errorResponse('The embedding provider’s rate limit'),
    502: errorResponse('The embedding provider failed'),
  },
});
