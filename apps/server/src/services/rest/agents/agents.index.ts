import type { Agent, AgentVersion } from '@chorus/shared/api/agents';
import { agentLimits } from '@chorus/shared/api/agents';
import type { ProviderId } from '@chorus/shared/providers';
import {
  AgentHandleTakenError,
  AgentsRepository,
  fieldsOfSnapshot,
  type AgentFields,
  type AgentRow,
  type AgentSnapshot,
  type AgentVersionRow,
} from '../../../db/repositories/agents.ts';
import { KnowledgeRepository } from '../../../db/repositories/knowledge.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import {
  createAgentRoute,
  deleteAgentRoute,
  getAgentRoute,
  listAgentsRoute,
  listAgentVersionsRoute,
  restoreAgentVersionRoute,
  updateAgentRoute,
} from './agents.routes.ts';

import { agentNotFound } from '../../../agents/agent-turn.ts';

export { agentNotFound };

const fieldsOf = (
  row: AgentSnapshot,
): Omit<Agent, 'id' | 'version' | 'created_at' | 'updated_at'> => ({
  name: row.name,
  handle: row.handle,
  description: row.description,
  avatar: row.avatar,
  instructions: row.instructions,
  provider: row.provider as ProviderId,
  model: row.model,
  temperature: row.temperature,
  max_steps: row.max_steps,
  tools: row.tools,
  knowledge_base_ids: row.knowledge_base_ids,
});

export const toAgent = (row: AgentRow): Agent => ({
  id: row.id,
  ...fieldsOf(row),
  version: row.version,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const toAgentVersion = (row: AgentVersionRow): AgentVersion => ({
  version: row.version,
  created_at: row.created_at.toISOString(),
  agent: fieldsOf(row.snapshot as AgentSnapshot),
});

/** Tools and knowledge bases given to an agent must exist and be the user's own. */
const checkReferences = async (
  deps: Deps,
  repo: AgentsRepository,
  fields: Pick<Partial<AgentFields>, 'tools' | 'knowledge_base_ids'>,
) => {
  const ids = fields.knowledge_base_ids;
  if (ids?.length) {
    const owned = await new KnowledgeRepository(deps.database.db, repo.userId).ownedBaseIds(ids);
    if (owned.length !== ids.length) throw new ApiError(404, 'knowledge:not_found');
  }
  if (fields.tools?.length) {
    const unknown = await repo.unknownTools(fields.tools.map((t) => t.tool));
    if (unknown.length) throw new ApiError(400, 'agents:unknown_tool');
  }
};

/** Runs a save; another agent of the user with the same handle is a 409. */
const saving = async <T>(work: Promise<T>): Promise<T> => {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AgentHandleTakenError) throw new ApiError(409, 'agents:handle_taken');
    throw error;
  }
};

/** Knowledge base ids are stored in lower case; compare them so. */
const lowerIds = <T extends { knowledge_base_ids?: string[] }>(body: T): T =>
  body.knowledge_base_ids
    ? {
        ...body,
        knowledge_base_ids: [...new Set(body.knowledge_base_ids.map((id) => id.toLowerCase()))],
      }
    : body;

export const agentsRouter = createRouter<AuthedEnv>()
  .openapi(listAgentsRoute, async (c) => {
    const rows = await new AgentsRepository(c.var.deps.database.db, c.var.user.id).list();
    return c.json({ agents: rows.map(toAgent) }, 200);
  })
  .openapi(createAgentRoute, async (c) => {
    const { deps, user } = c.var;
    const body = lowerIds(c.req.valid('json'));
    const repo = new AgentsRepository(deps.database.db, user.id);
    await checkReferences(deps, repo, body);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await saving(
      withinUserLimit(deps.database.db, 'agents', user.id, async (tx) => {
        const own = new AgentsRepository(tx, user.id);
        if ((await own.count()) >= agentLimits.perUser) throw new ApiError(409, 'agents:too_many');
        return own.create(body);
      }),
    );
    return c.json(toAgent(row), 201);
  })
  .openapi(getAgentRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw agentNotFound();
    const row = await new AgentsRepository(c.var.deps.database.db, c.var.user.id).get(id);
    if (!row) throw agentNotFound();
    return c.json(toAgent(row), 200);
  })
  .openapi(updateAgentRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw agentNotFound();
    const body = lowerIds(c.req.valid('json'));
    const repo = new AgentsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw agentNotFound();
    await checkReferences(deps, repo, body);
    const row = await saving(repo.update(id, body));
    if (!row) throw agentNotFound();
    return c.json(toAgent(row), 200);
  })
  .openapi(deleteAgentRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw agentNotFound();
    const removed = await new AgentsRepository(c.var.deps.database.db, c.var.user.id).remove(id);
    if (!removed) throw agentNotFound();
    return c.body(null, 204);
  })
  .openapi(listAgentVersionsRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw agentNotFound();
    const repo = new AgentsRepository(c.var.deps.database.db, c.var.user.id);
    if (!(await repo.get(id))) throw agentNotFound();
    const rows = await repo.versions(id);
    return c.json({ versions: rows.map(toAgentVersion) }, 200);
  })
  .openapi(restoreAgentVersionRoute, async (c) => {
    const { deps, user } = c.var;
    const { id, version } = c.req.valid('param');
    if (!isUuid(id)) throw agentNotFound();
    const repo = new AgentsRepository(deps.database.db, user.id);
    if (!(await repo.get(id))) throw agentNotFound();
    const saved = /^[1-9][0-9]{0,8}$/.test(version)
      ? await repo.version(id, Number(version))
      : null;
    if (!saved) throw new ApiError(404, 'agents:version_not_found');
    await checkReferences(deps, repo, fieldsOfSnapshot(saved));
    const row = await saving(repo.restore(id, saved));
    if (!row) throw agentNotFound();
    return c.json(toAgent(row), 200);
  });
