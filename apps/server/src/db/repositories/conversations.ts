import { and, desc, eq, ilike, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import type { ConversationListCursor, KeysetCursor } from '../keyset-cursor.ts';
import { containsPattern } from '../like.ts';
import { isForeignKeyViolation } from './profiles.ts';
import { conversations, messages } from '../schema/index.ts';

export type ConversationRow = typeof conversations.$inferSelect;

/** Spec §3: 'New Conversation' by default; 'New Chat' plus the current time for an empty title. */
export const conversationTitle = (title: string | undefined, now = new Date()): string => {
  if (title === undefined) return 'New Conversation';
  const trimmed = title.trim();
  return trimmed === ''
    ? `New Chat ${now.toLocaleTimeString('en-GB', { timeZone: 'UTC' })}`
    : trimmed;
};

export class ConversationsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  async create(title?: string, systemPrompt = ''): Promise<ConversationRow> {
    const [row] = await this.db
      .insert(conversations)
      .values({
        user_id: this.userId,
        title: conversationTitle(title),
        system_prompt: systemPrompt,
      })
      .returning();
    return row!;
  }

  async get(id: string): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)))
      .limit(1);
    return row;
  }

  /**
   * Pinned conversations first (most recently pinned first), then the others newest first;
   * keyset-paginated across both, so the ten-thousandth conversation costs what the first does.
   */
  async list(opts: {
    limit: number;
    after?: ConversationListCursor | undefined;
    search?: string | undefined;
  }): Promise<ConversationRow[]> {
    const pattern = opts.search ? containsPattern(opts.search) : null;
    const owned = pattern
      ? and(eq(conversations.user_id, this.userId), ilike(conversations.title, pattern))
      : eq(conversations.user_id, this.userId);
    const { after, limit } = opts;
    const others = (count: number, from?: KeysetCursor) =>
      this.db
        .select()
        .from(conversations)
        .where(
          and(
            owned,
            isNull(conversations.pinned_at),
            from &&
              or(
                lt(conversations.created_at, from.created_at),
                and(eq(conversations.created_at, from.created_at), lt(conversations.id, from.id)),
              ),
          ),
        )
        .orderBy(desc(conversations.created_at), desc(conversations.id))
        .limit(count);
    if (after && !after.pinned) return others(limit, after);
    const pinned = await this.db
      .select()
      .from(conversations)
      .where(
        and(
          owned,
          isNotNull(conversations.pinned_at),
          after &&
            or(
              lt(conversations.pinned_at, after.pinned_at),
              and(eq(conversations.pinned_at, after.pinned_at), lt(conversations.id, after.id)),
            ),
        ),
      )
      .orderBy(desc(conversations.pinned_at), desc(conversations.id))
      .limit(limit);
    return pinned.length < limit ? [...pinned, ...(await others(limit - pinned.length))] : pinned;
  }

  rename(id: string, title: string): Promise<ConversationRow | undefined> {
    return this.update(id, { title });
  }

  /**
   * Renames, pins or unpins. Pinning keeps the first pin time of a conversation already pinned,
   * and is no activity: it leaves `updated_at` as it was. The pin time is the app's clock in
   * milliseconds, so that a list cursor (ISO text) names it exactly.
   */
  async update(
    id: string,
    patch: {
      title?: string | undefined;
      pinned?: boolean | undefined;
      system_prompt?: string | undefined;
      /** Checked to be the user's knowledge bases by the caller. */
      knowledge_base_ids?: string[] | undefined;
      /** Checked to be the user's custom AI by the caller. */
      custom_ai_id?: string | null | undefined;
    },
  ): Promise<ConversationRow | undefined> {
    const pinnedAt =
      patch.pinned === undefined
        ? {}
        : {
            pinned_at: patch.pinned
              ? sql`coalesce(${conversations.pinned_at}, ${new Date().toISOString()}::timestamptz)`
              : null,
          };
    const [row] = await this.db
      .update(conversations)
      .set({
        ...pinnedAt,
        ...(patch.system_prompt !== undefined && { system_prompt: patch.system_prompt }),
        ...(patch.knowledge_base_ids !== undefined && {
          knowledge_base_ids: patch.knowledge_base_ids,
        }),
        ...(patch.custom_ai_id !== undefined && { custom_ai_id: patch.custom_ai_id }),
        // Only a rename moves the conversation up the list.
        ...(patch.title === undefined
          ? { updated_at: sql`${conversations.updated_at}` }
          : { title: conversationTitle(patch.title) }),
      })
      .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)))
      .returning();
    return row;
  }

  /**
   * Spec §4's last two steps, in one transaction: the conversation's messages, then the
   * conversation. Its files go first (`deleteConversationFiles`); a file row still pointing at
   * the conversation (one uploaded meanwhile) refuses the delete, answered as 'files_added'.
   */
  async delete(id: string): Promise<boolean | 'files_added'> {
    try {
      return await this.db.transaction(async (tx) => {
        await tx
          .delete(messages)
          .where(and(eq(messages.conversation_id, id), eq(messages.user_id, this.userId)));
        const deleted = await tx
          .delete(conversations)
          .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)))
          .returning({ id: conversations.id });
        return deleted.length > 0;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) return 'files_added';
      throw error;
    }
  }

  /** Moves the conversation to the top of the list's activity order. */
  async touch(id: string): Promise<void> {
    await this.db
      .update(conversations)
      .set({ updated_at: new Date() })
      .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)));
  }
}
