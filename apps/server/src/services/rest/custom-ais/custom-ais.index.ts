import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { customAiLimits } from '@chorus/shared/api/custom-ais';
import type { ProviderId } from '@chorus/shared/providers';
import { CustomAisRepository, type CustomAiRow } from '../../../db/repositories/custom-ais.ts';
import { KnowledgeRepository } from '../../../db/repositories/knowledge.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import {
  createCustomAiRoute,
  deleteCustomAiRoute,
  getCustomAiRoute,
  listCustomAisRoute,
  shareCustomAiRoute,
  unshareCustomAiRoute,
  updateCustomAiRoute,
} from './custom-ais.routes.ts';

export const customAiNotFound = () => new ApiError(404, 'custom_ais:not_found');

/**
 * A custom AI as `viewerId` may read it: a published one of someone else keeps its knowledge
 * bases and the curators' note to itself.
 */
export const toCustomAi = (row: CustomAiRow, viewerId: string = row.user_id): CustomAi => {
  const owned = row.user_id === viewerId;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatar: row.avatar,
    system_prompt: row.system_prompt,
    provider: row.provider as ProviderId,
    model: row.model,
    parameters: { temperature: row.temperature, top_p: row.top_p, max_tokens: row.max_tokens },
    starters: row.starters,
    knowledge_base_ids: owned ? row.knowledge_base_ids : [],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    share_status: row.share_status,
    share_note: owned ? row.share_note : '',
    category: row.category,
    owned,
  };
};

/** Knowledge bases given to a custom AI must be the user's own. */
const checkBases = async (deps: Deps, userId: string, ids: string[] | undefined) => {
  if (!ids?.length) return;
  const owned = await new KnowledgeRepository(deps.database.db, userId).ownedBaseIds(ids);
  if (owned.length !== ids.length) throw new ApiError(404, 'knowledge:not_found');
};

export const customAisRouter = createRouter<AuthedEnv>()
  .openapi(listCustomAisRoute, async (c) => {
    const rows = await new CustomAisRepository(c.var.deps.database.db, c.var.user.id).list();
    return c.json({ custom_ais: rows.map((row) => toCustomAi(row)) }, 200);
  })
  .openapi(createCustomAiRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    await checkBases(deps, user.id, body.knowledge_base_ids);
    const { parameters, ...rest } = body;
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'custom_ais', user.id, async (tx) => {
      const repo = new CustomAisRepository(tx, user.id);
      if ((await repo.count()) >= customAiLimits.perUser) {
        throw new ApiError(409, 'custom_ais:too_many');
      }
      return repo.create({ ...rest, ...parameters });
    });
    return c.json(toCustomAi(row), 201);
  })
  .openapi(getCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw customAiNotFound();
    const { user } = c.var;
    const row = await new CustomAisRepository(c.var.deps.database.db, user.id).getUsable(id);
    if (!row) throw customAiNotFound();
    return c.json(toCustomAi(row, user.id), 200);
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
  })
  .openapi(shareCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw customAiNotFound();
    const { category } = c.req.valid('json');
    const repo = new CustomAisRepository(c.var.deps.database.db, c.var.user.id);
    const row = await repo.share(id, category);
    if (!row) throw customAiNotFound();
    if (row === 'published') throw new ApiError(409, 'custom_ais:already_published');
    return c.json(toCustomAi(row), 200);
  })
  .openapi(unshareCustomAiRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw customAiNotFound();
    const repo = new CustomAisRepository(c.var.deps.database.db, c.var.user.id);
    const row = await repo.unshare(id);
    if (!row) throw customAiNotFound();
    return c.json(toCustomAi(row), 200);
  });
