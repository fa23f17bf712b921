import { and, eq, inArray } from 'drizzle-orm';
import type { MessageAgentRun } from '@chorus/shared/api/agents';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { Db } from '../client.ts';
import { agentRuns, agentToolGrants } from '../schema/index.ts';
import { grantKey } from '../../agents/approval-scope.ts';
import { ownerGone } from './instances.ts';

export type AgentRunRow = typeof agentRuns.$inferSelect;
export type AgentRunStatus = AgentRunRow['status'];

/** Runs of one user (issue 18). Every query is scoped to that user. */
export class AgentRunsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  async create(
    run: Pick<
      typeof agentRuns.$inferInsert,
      'id' | 'agent_id' | 'agent_name' | 'agent_version' | 'conversation_id' | 'message_id'
    > & { instance_id: string },
  ): Promise<void> {
    await this.db.insert(agentRuns).values({ ...run, user_id: this.userId, status: 'running' });
  }

  async get(id: string): Promise<AgentRunRow | undefined> {
    const [row] = await this.db
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.id, id), eq(agentRuns.user_id, this.userId)))
      .limit(1);
    return row;
  }

  /**
   * Takes a run waiting for approval and marks it running again, in one statement, so that two
   * answers to the same pause (two tabs) cannot both go on with it.
   */
  async resume(id: string, instanceId: string): Promise<AgentRunRow | undefined> {
    const [row] = await this.db
      .update(agentRuns)
      .set({ status: 'running', instance_id: instanceId })
      .where(
        and(
          eq(agentRuns.id, id),
          eq(agentRuns.user_id, this.userId),
          eq(agentRuns.status, 'awaiting_approval'),
        ),
      )
      .returning();
    return row;
  }

  async update(
    id: string,
    patch: Partial<
      Pick<
        AgentRunRow,
        | 'status'
        | 'steps'
        | 'input_tokens'
        | 'output_tokens'
        | 'elapsed_ms'
        | 'state'
        | 'error_code'
        | 'error_message'
        | 'instance_id'
      >
    >,
  ): Promise<void> {
    await this.db
      .update(agentRuns)
      .set(patch)
      .where(and(eq(agentRuns.id, id), eq(agentRuns.user_id, this.userId)));
  }

  /** The agent and status of each run, for the messages a page shows. */
  async summaries(ids: string[]): Promise<Map<string, MessageAgentRun>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({
        id: agentRuns.id,
        agent_id: agentRuns.agent_id,
        agent_name: agentRuns.agent_name,
        status: agentRuns.status,
      })
      .from(agentRuns)
      .where(and(inArray(agentRuns.id, ids), eq(agentRuns.user_id, this.userId)));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The tools of a conversation approved once (policy `once`). */
  /** The calls approved once in the conversation, as `grantKey(tool, shape)`. */
  async grants(conversationId: string): Promise<Set<string>> {
    const rows = await this.db
      .select({ tool: agentToolGrants.tool, shape: agentToolGrants.shape })
      .from(agentToolGrants)
      .where(
        and(
          eq(agentToolGrants.conversation_id, conversationId),
          eq(agentToolGrants.user_id, this.userId),
        ),
      );
    return new Set(rows.map((row) => grantKey(row.tool, row.shape)));
  }

  async grant(conversationId: string, calls: { tool: string; shape: string }[]): Promise<void> {
    if (calls.length === 0) return;
    await this.db
      .insert(agentToolGrants)
      .values(
        calls.map(({ tool, shape }) => ({
          conversation_id: conversationId,
          user_id: this.userId,
          tool,
          shape,
        })),
      )
      .onConflictDoNothing();
  }
}

/**
 * Runs left `running` by an instance that is gone (ADR 018) fail with a plain reason; their
 * replies are interrupted beside them (`interruptAbandonedReplies`). Runs paused for an approval
 * belong to no instance and wait. One statement, so two sweeps never both end a run.
 */
export const failAbandonedAgentRuns = async (db: Db): Promise<string[]> => {
  const rows = await db
    .update(agentRuns)
    .set({
      status: 'failed',
      error_code: 'agents:interrupted',
      error_message: messageFor('agents:interrupted'),
    })
    .where(and(eq(agentRuns.status, 'running'), ownerGone(agentRuns.instance_id)))
    .returning({ id: agentRuns.id });
  return rows.map((r) => r.id);
};
