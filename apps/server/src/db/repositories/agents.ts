import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { agentHandle } from '@chorus/shared/api/agents';
import { builtinTools } from '@chorus/shared/api/tools';
import type { Db, Queryable } from '../client.ts';
import { agents, agentVersions, httpTools, mcpTools } from '../schema/index.ts';
import { isUniqueViolation } from './profiles.ts';

export type AgentRow = typeof agents.$inferSelect;
export type AgentVersionRow = typeof agentVersions.$inferSelect;

/** What a user sets on an agent; the handle follows from the name. */
export type AgentFields = Pick<
  AgentRow,
  | 'name'
  | 'description'
  | 'avatar'
  | 'instructions'
  | 'provider'
  | 'model'
  | 'temperature'
  | 'max_steps'
  | 'tools'
  | 'knowledge_base_ids'
>;

/** The agent as one version saved it: its fields and the handle they made. */
export type AgentSnapshot = AgentFields & { handle: string };

/** Another agent of the same user has the handle this name makes. */
export class AgentHandleTakenError extends Error {
  override name = 'AgentHandleTakenError';
}

const fieldNames = [
  'name',
  'description',
  'avatar',
  'instructions',
  'provider',
  'model',
  'temperature',
  'max_steps',
  'tools',
  'knowledge_base_ids',
] as const satisfies readonly (keyof AgentFields)[];

export const snapshotOf = (row: AgentFields): AgentSnapshot => ({
  ...(Object.fromEntries(fieldNames.map((k) => [k, row[k]])) as AgentFields),
  handle: agentHandle(row.name),
});

/** jsonb keeps an object's keys in its own order, so tools are compared by their values. */
const comparable = (fields: AgentFields) =>
  JSON.stringify(
    fieldNames.map((k) =>
      k === 'tools' ? fields.tools.map((t) => [t.tool, t.approval]) : fields[k],
    ),
  );

const sameFields = (a: AgentFields, b: AgentFields) => comparable(a) === comparable(b);

const builtinKeys: ReadonlySet<string> = new Set(builtinTools.map((t) => t.key));

/** The tool key pattern admits any 36 of hex and dashes; only a real UUID can match a row. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A user's agents (issue 18) and their saved versions; every query is scoped to `userId`. Each
 * change is a new version whose snapshot is written in the same transaction, so history is never
 * rewritten: a restore is one more change.
 */
export class AgentsRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private mine(id: string) {
    return and(eq(agents.id, id), eq(agents.user_id, this.userId));
  }

  list(): Promise<AgentRow[]> {
    return this.db
      .select()
      .from(agents)
      .where(eq(agents.user_id, this.userId))
      .orderBy(desc(agents.created_at), agents.id);
  }

  async get(id: string): Promise<AgentRow | null> {
    const [row] = await this.db.select().from(agents).where(this.mine(id));
    return row ?? null;
  }

  async getByHandle(handle: string): Promise<AgentRow | null> {
    const [row] = await this.db
      .select()
      .from(agents)
      .where(and(eq(agents.user_id, this.userId), eq(agents.handle, handle.toLowerCase())));
    return row ?? null;
  }

  async count(): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(agents)
      .where(eq(agents.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  /** Throws AgentHandleTakenError when another agent of the user has the name's handle. */
  async create(fields: AgentFields): Promise<AgentRow> {
    return this.handleUnique(() =>
      this.db.transaction(async (tx) => {
        const snapshot = snapshotOf(fields);
        const [row] = await tx
          .insert(agents)
          .values({ ...snapshot, user_id: this.userId, version: 1 })
          .returning();
        await this.saveVersion(tx, row!);
        return row!;
      }),
    );
  }

  /**
   * Applies `patch` as a new version; a patch that changes nothing leaves the agent (and its
   * version) as it is. Null when the agent is not the user's; throws AgentHandleTakenError.
   */
  async update(id: string, patch: Partial<AgentFields>): Promise<AgentRow | null> {
    return this.handleUnique(() =>
      this.db.transaction(async (tx) => {
        const [current] = await tx.select().from(agents).where(this.mine(id)).for('update');
        if (!current) return null;
        const next = { ...snapshotOf(current), ...patch };
        if (sameFields(current, next)) return current;
        const [row] = await tx
          .update(agents)
          .set({ ...snapshotOf(next), version: current.version + 1 })
          .where(this.mine(id))
          .returning();
        await this.saveVersion(tx, row!);
        return row!;
      }),
    );
  }

  async remove(id: string): Promise<boolean> {
    const rows = await this.db.delete(agents).where(this.mine(id)).returning({ id: agents.id });
    return rows.length > 0;
  }

  /** The agent's saved versions, newest first (empty when the agent is not the user's). */
  versions(agentId: string): Promise<AgentVersionRow[]> {
    return this.db
      .select()
      .from(agentVersions)
      .where(and(eq(agentVersions.agent_id, agentId), eq(agentVersions.user_id, this.userId)))
      .orderBy(desc(agentVersions.version));
  }

  async version(agentId: string, version: number): Promise<AgentVersionRow | null> {
    const [row] = await this.db
      .select()
      .from(agentVersions)
      .where(
        and(
          eq(agentVersions.agent_id, agentId),
          eq(agentVersions.user_id, this.userId),
          eq(agentVersions.version, version),
        ),
      );
    return row ?? null;
  }

  /**
   * Makes the agent what `version` saved, as a new version. Null when the agent or the version is
   * not the user's; throws AgentHandleTakenError when another agent took the name's handle since.
   */
  async restore(agentId: string, version: number | AgentVersionRow): Promise<AgentRow | null> {
    // A version row already read (the route checks its references first) is not read again.
    const saved =
      typeof version === 'number'
        ? await this.version(agentId, version)
        : version.agent_id === agentId && version.user_id === this.userId
          ? version
          : null;
    if (!saved) return null;
    return this.update(agentId, fieldsOfSnapshot(saved));
  }

  /**
   * The keys among `keys` that name no tool of the user: built-in keys must be in the catalogue,
   * `http:<id>` and `mcp:<id>` a row of the user's.
   */
  async unknownTools(keys: readonly string[]): Promise<string[]> {
    const idsOf = (prefix: string) =>
      keys
        .filter((k) => k.startsWith(prefix))
        .map((k) => k.slice(prefix.length))
        .filter((id) => uuidPattern.test(id));
    const httpIds = idsOf('http:');
    const mcpIds = idsOf('mcp:');
    const known = new Set(builtinKeys);
    if (httpIds.length) {
      const rows = await this.db
        .select({ id: httpTools.id })
        .from(httpTools)
        .where(and(eq(httpTools.user_id, this.userId), inArray(httpTools.id, httpIds)));
      for (const r of rows) known.add(`http:${r.id}`);
    }
    if (mcpIds.length) {
      const rows = await this.db
        .select({ id: mcpTools.id })
        .from(mcpTools)
        .where(and(eq(mcpTools.user_id, this.userId), inArray(mcpTools.id, mcpIds)));
      for (const r of rows) known.add(`mcp:${r.id}`);
    }
    return keys.filter((k) => !known.has(k));
  }

  private saveVersion(tx: Queryable, row: AgentRow) {
    return tx.insert(agentVersions).values({
      agent_id: row.id,
      user_id: this.userId,
      version: row.version,
      snapshot: snapshotOf(row),
      created_at: row.updated_at,
    });
  }

  private async handleUnique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      // The unique index on (user_id, handle) has the last word, races included.
      if (isUniqueViolation(error)) throw new AgentHandleTakenError();
      throw error;
    }
  }
}

/** A saved snapshot's fields, as an update puts them back. */
export const fieldsOfSnapshot = (row: AgentVersionRow): AgentFields => {
  const { handle: _handle, ...fields } = row.snapshot as AgentSnapshot;
  return fields;
};
