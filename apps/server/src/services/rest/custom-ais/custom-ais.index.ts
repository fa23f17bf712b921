import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { customAiLimits } from '@chorus/shared/api/custom-ais';
import type { ProviderId } from '@chorus/shared/providers';
import { CustomAisRepository, type CustomAiRow } from '../../../db/repositories/custom-ais.ts';
import { KnowledgeRepository } from '../../../db/repositories/knowledge.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import {
  createCustomAiRoute,
  deleteCustomAiRoute,
  getCustomAiRoute,
  listCustomAisRoute,
  updateCustomAiRoute,
} from './custom-ais.routes.ts';

export const customAiNotFound = () => new ApiError(404, 'custom_ais:not_found');

export const toCustomAi = (row: CustomAiRow): CustomAi => ({
  id: row.id,
  name: row.name,
  description: row.description,
  avatar: row.avatar,
  system_prompt: row.system_prompt,
  provider: row.provider as ProviderId,
  model: row.model,
  parameters: { temperature: row.temperature, top_p: row.top_p, max_tokens: row.max_tokens },
  starters: row.starters,
  knowledge_base_ids: row.knowledge_base_ids,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Knowledge bases given to a custom AI must be the user's own. */
const checkBases = async (deps: Deps, userId: string, ids: string[] | undefined) => {
  if (!ids?.length) return;
  const owned = await new KnowledgeRepository(deps.database.db, userId).ownedBaseIds(ids);
  if (owned.length !== ids.length) throw new ApiError(404, 'knowledge:not_found');
};

export const customAisRouter = createRouter<AuthedEnv>()
  .openapi(listCustomAisRoute, async (c) => {
    const rows = await new CustomAisRepository(c.var.deps.database.db, c.var.user.id).list();
    return c.json({ custom_ais: rows.map(toCustomAi) }, 200);
  })
  .openapi(createCustomAiRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    await checkBases(deps, user.id, body.knowledge_base_ids);
    const repo = new CustomAisRepository(deps.database.db, user.id);
    if ((await repo.count()) >= customAiLimits.perUser) {
      throw new ApiError(409, 'custom_ais:too_many');
    }
    const { parameters, ...rest } = body;
    const row = await repo.create({ ...rest, ...parameters });
    return c.json(toCustomAi(row), 201);
  })
  .openapi(getCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw customAiNotFound();
    const row = await new CustomAisRepository(c.var.deps.database.db, c.var.user.id).get(id);
    if (!row) throw customAiNotFound();
    return c.json(toCustomAi(row), 200);
  })
  .openapi(updateCustomAiRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw customAiNotFound();
    const body = c.req.valid('json');
    const repo = new CustomAisRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw customAiNotFound();
    await checkBases(deps, user.id, body.knowledge_base_ids);
    const { parameters, ...rest } = body;
    const row = await repo.update(id, { ...rest, ...parameters });
    if (!row) throw customAiNotFound();
    return c.json(toCustomAi(row), 200);
  })
  .openapi(deleteCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw customAiNotFound();
    const removed = await new CustomAisRepository(c.var.deps.database.db, c.var.user.id).remove(id);
    if (!removed) throw customAiNotFound();
    return c.body(null, 204);
  });
