import { and, asc, desc, eq, getTableColumns, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { messagePageSize } from '@chorus/shared/limits';
import { chatMessages } from '@chorus/shared/messages';
import { rowsOf, type Db } from '../client.ts';
import { conversations, messages } from '../schema/index.ts';
import { ownerGone } from './instances.ts';

export type MessageRow = typeof messages.$inferSelect;
/** A message with the ids of its versions (the answers to the same message), oldest first. */
export type MessageWithVersions = MessageRow & { version_ids: string[] | null };
export type NewMessage = Pick<typeof messages.$inferInsert, 'content' | 'role'> &
  Partial<
    Pick<typeof messages.$inferInsert, 'provider' | 'model' | 'reply_to_id' | 'sources' | 'status'>
  >;

/** A chat turn as it is stored: what it replaces, the user's message when new, the reply row. */
export type TurnWrite = {
  conversationId: string;
  /**
   * A regenerate keeps the answers written after this message as earlier versions (superseded);
   * an edit removes this message and everything after it.
   */
  replace?: { seq: number; mode: 'supersede' | 'delete' } | undefined;
  userMessage?:
    | {
        id: string;
        content: string;
        provider: string;
        /** Files sent with it: `{ id, name, content_type, size_bytes }` each. */
        attachments?: unknown[] | undefined;
      }
    | undefined;
  reply: {
    id: string;
    provider: string;
    model: string;
    reply_to_id: string;
    /** An agent's reply: its run (issue 18). */
    agent_run_id?: string | undefined;
  };
  /** The server instance streaming the reply (its lease keeps the reply from being recovered). */
  instanceId: string;
  /** Selected once the rows are in (a realtime notice, delivered on commit). */
  notice?: SQL | undefined;
};

export class MessagesRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /** In the order written, page size 200 (spec §7, §9). */
  async list(
    conversationId: string,
    page: { limit?: number; offset?: number } = {},
  ): Promise<MessageRow[]> {
    return this.db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.conversation_id, conversationId),
          eq(messages.user_id, this.userId),
          eq(messages.superseded, false),
        ),
      )
      .orderBy(asc(messages.seq))
      .limit(page.limit ?? messagePageSize)
      .offset(page.offset ?? 0);
  }

  /** Returns undefined when the conversation is not the user's own. */
  async insert(conversationId: string, message: NewMessage): Promise<MessageRow | undefined> {
    const [owned] = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.user_id, this.userId)))
      .limit(1);
    if (!owned) return undefined;
    const [row] = await this.db
      .insert(messages)
      .values({ ...message, conversation_id: conversationId, user_id: this.userId })
      .returning();
    return row;
  }

  /**
   * One statement for a whole chat turn: drop what it replaces, insert the user's message (when
   * new) and the reply placeholder (status `streaming`), and move the conversation up the
   * sidebar. Runs beside the provider call; nothing streams to the client before it commits.
   * Answers false when the conversation is not (or no longer) the user's.
   */
  async writeTurn(turn: TurnWrite): Promise<boolean> {
    const { conversationId, replace, userMessage, reply, notice, instanceId } = turn;
    const u = this.userId;
    const replaced = !replace
      ? sql``
      : replace.mode === 'delete'
        ? sql`, dropped as (
          delete from messages where conversation_id = ${conversationId} and user_id = ${u}
            and seq >= ${replace.seq}
        )`
        : sql`, superseded as (
          update messages set superseded = true
          where conversation_id = ${conversationId} and user_id = ${u}
            and seq > ${replace.seq} and not superseded
        )`;
    const userRow = userMessage
      ? sql`(${userMessage.id}::uuid, ${conversationId}::uuid, ${u}, ${userMessage.content}, 'user',
            ${userMessage.provider}, null, null, 'complete', null,
            ${JSON.stringify(userMessage.attachments ?? [])}::jsonb, null::uuid), `
      : sql``;
    const result = await this.db.execute(sql`
      with owned as (
        update conversations set updated_at = now()
        where id = ${conversationId} and user_id = ${u}
        returning id
      )${replaced},
      added as (
        insert into messages
          (id, conversation_id, user_id, content, role, provider, model, reply_to_id, status,
           instance_id, attachments, agent_run_id)
        select v.* from (values ${userRow}
          (${reply.id}::uuid, ${conversationId}::uuid, ${u}, '', 'assistant', ${reply.provider},
           ${reply.model}, ${reply.reply_to_id}::uuid, 'streaming', ${instanceId}::uuid,
           '[]'::jsonb, ${reply.agent_run_id ?? null}::uuid)
        ) as v where exists (select 1 from owned)
        returning id
      )
      select (select count(*)::int from added) as added
        ${notice ? sql`, (select ${notice} where exists (select 1 from added)) as notice` : sql``}
    `);
    return Number(rowsOf<{ added: number }>(result)[0]?.added ?? 0) > 0;
  }

  async deleteForConversation(conversationId: string): Promise<number> {
    const deleted = await this.db
      .delete(messages)
      .where(and(eq(messages.conversation_id, conversationId), eq(messages.user_id, this.userId)))
      .returning({ id: messages.id });
    return deleted.length;
  }

  async get(id: string): Promise<MessageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.id, id), eq(messages.user_id, this.userId)))
      .limit(1);
    return row;
  }

  /**
   * The last `limit` messages of a conversation written before `before` (a `seq`; none: the
   * newest), oldest first, in one round trip with the check that the conversation is the user's:
   * null when it is not. `older` says whether anything was written before the page.
   */
  async pageOfOwn(
    conversationId: string,
    opts: { limit: number; before?: number | undefined },
  ): Promise<{
    messages: MessageWithVersions[];
    older: boolean;
    systemPrompt: string;
    knowledgeBaseIds: string[];
    customAiId: string | null;
  } | null> {
    const latest = this.db
      .select({
        ...getTableColumns(messages),
        // An answer regenerated at least once: every version's id, oldest first (the index on
        // reply_to_id answers it per row); null for the rest.
        // Written out in full: drizzle leaves column names unqualified inside a subquery.
        version_ids: sql<string[] | null>`case when "messages"."role" = 'assistant' then (
          select case when count(*) > 1 then array_agg(v.id order by v.seq) end
          from messages v
          where v.reply_to_id = "messages"."reply_to_id"
            and v.user_id = "messages"."user_id" and v.role = 'assistant'
        ) end`.as('version_ids'),
      })
      .from(messages)
      .where(
        and(
          eq(messages.conversation_id, conversationId),
          eq(messages.user_id, this.userId),
          eq(messages.superseded, false),
          opts.before === undefined ? undefined : lt(messages.seq, opts.before),
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(opts.limit + 1)
      .as('latest');
    const columns = Object.fromEntries(
      [...Object.keys(getTableColumns(messages)), 'version_ids'].map((k) => [
        k,
        latest[k as keyof MessageWithVersions],
      ]),
    ) as { [K in keyof MessageWithVersions]: (typeof latest)[K] };
    const rows = await this.db
      .select({
        owned: conversations.id,
        systemPrompt: conversations.system_prompt,
        knowledgeBaseIds: conversations.knowledge_base_ids,
        customAiId: conversations.custom_ai_id,
        message: columns,
      })
      .from(conversations)
      .leftJoinLateral(latest, sql`true`)
      .where(and(eq(conversations.id, conversationId), eq(conversations.user_id, this.userId)));
    if (rows.length === 0) return null;
    const found = rows
      .flatMap((r) => (r.message ? [r.message] : []))
      .sort((a, b) => Number(b.seq) - Number(a.seq));
    return {
      messages: found.slice(0, opts.limit).reverse(),
      older: found.length > opts.limit,
      systemPrompt: rows[0]!.systemPrompt,
      knowledgeBaseIds: rows[0]!.knowledgeBaseIds,
      customAiId: rows[0]!.customAiId,
    };
  }

  /**
   * The last `limit` current messages, oldest first, and the conversation's system prompt; null
   * when the conversation is not the user's.
   */
  async recentOfOwn(
    conversationId: string,
    limit: number,
  ): Promise<{
    messages: MessageWithVersions[];
    systemPrompt: string;
    knowledgeBaseIds: string[];
  } | null> {
    const page = await this.pageOfOwn(conversationId, { limit });
    return (
      page && {
        messages: page.messages,
        systemPrompt: page.systemPrompt,
        knowledgeBaseIds: page.knowledgeBaseIds,
      }
    );
  }

  /** Every version of the answer `id` is one of, oldest first; empty when it is not the user's. */
  async versionsOf(id: string): Promise<MessageRow[]> {
    const reply = await this.get(id);
    if (!reply || reply.role !== 'assistant' || !reply.reply_to_id) return [];
    return this.db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.user_id, this.userId),
          eq(messages.conversation_id, reply.conversation_id),
          eq(messages.reply_to_id, reply.reply_to_id),
          eq(messages.role, 'assistant'),
        ),
      )
      .orderBy(asc(messages.seq));
  }

  /**
   * Makes `id` the current version of its answer (the one shown and sent as context); the other
   * versions become earlier ones, in one statement. Answers the versions, or an empty list when
   * `id` is not an answer of the user's.
   */
  async selectVersion(id: string): Promise<MessageRow[]> {
    const versions = await this.versionsOf(id);
    if (versions.length === 0) return [];
    await this.db
      .update(messages)
      .set({ superseded: sql`${messages.id} <> ${id}::uuid` })
      .where(
        and(
          eq(messages.user_id, this.userId),
          inArray(
            messages.id,
            versions.map((v) => v.id),
          ),
        ),
      );
    return versions.map((v) => ({ ...v, superseded: v.id !== id }));
  }

  /** `notice` is selected in the same statement when the row changed (a realtime notice). */
  async update(
    id: string,
    patch: Partial<
      Pick<
        MessageRow,
        | 'content'
        | 'status'
        | 'sources'
        | 'model'
        | 'error_code'
        | 'error_message'
        | 'tool_calls'
        | 'instance_id'
      >
    >,
    notice?: SQL,
  ): Promise<void> {
    const change = this.db
      .update(messages)
      .set(patch)
      .where(and(eq(messages.id, id), eq(messages.user_id, this.userId)));
    if (!notice) {
      await change;
      return;
    }
    const updated = this.db.$with('updated').as(change.returning({ id: messages.id }));
    await this.db
      .with(updated)
      .select({ notice: sql`${notice}` })
      .from(updated);
  }
}

/**
 * No reply may stay `streaming` once the instance writing it is gone (ADR 018): such replies keep
 * the text saved so far and become `interrupted`. An instance is gone when its lease has run out
 * or its row is missing (and a reply without an instance predates leases). Live instances'
 * replies are left alone, so instances starting or sweeping never cut each other off. One
 * statement: of two sweeps at once, the second finds the rows no longer streaming.
 */
export const interruptAbandonedReplies = async (db: Db): Promise<string[]> => {
  const rows = await db
    .update(messages)
    .set({
      status: 'interrupted',
      error_code: 'chat:server_restarting',
      error_message: chatMessages.replyCutByRestart,
    })
    .where(and(eq(messages.status, 'streaming'), ownerGone(messages.instance_id)))
    .returning({ id: messages.id });
  return rows.map((r) => r.id);
};
