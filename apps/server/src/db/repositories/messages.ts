import { and, asc, desc, eq, gt, gte } from 'drizzle-orm';
import { messagePageSize } from '@chorus/shared/limits';
import type { Db } from '../client.ts';
import { conversations, messages } from '../schema.ts';

export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = Pick<typeof messages.$inferInsert, 'content' | 'role'> &
  Partial<
    Pick<typeof messages.$inferInsert, 'provider' | 'model' | 'reply_to_id' | 'sources' | 'status'>
  >;

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
      .where(and(eq(messages.conversation_id, conversationId), eq(messages.user_id, this.userId)))
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

  /** The last `limit` messages, oldest first: the context sent to a model. */
  async recent(conversationId: string, limit: number): Promise<MessageRow[]> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversation_id, conversationId), eq(messages.user_id, this.userId)))
      .orderBy(desc(messages.seq))
      .limit(limit);
    return rows.reverse();
  }

  async lastOfRole(
    conversationId: string,
    role: MessageRow['role'],
  ): Promise<MessageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.conversation_id, conversationId),
          eq(messages.user_id, this.userId),
          eq(messages.role, role),
        ),
      )
      .orderBy(desc(messages.seq))
      .limit(1);
    return row;
  }

  async update(
    id: string,
    patch: Partial<Pick<MessageRow, 'content' | 'status' | 'sources' | 'model'>>,
  ): Promise<void> {
    await this.db
      .update(messages)
      .set(patch)
      .where(and(eq(messages.id, id), eq(messages.user_id, this.userId)));
  }

  /** Removes `message` and everything written after it in its conversation (edit-and-resend). */
  deleteFrom(message: Pick<MessageRow, 'conversation_id' | 'seq'>): Promise<number> {
    return this.deleteWhereSeq(message, gte);
  }

  /** Removes everything written after `message` in its conversation (regenerate). */
  deleteAfter(message: Pick<MessageRow, 'conversation_id' | 'seq'>): Promise<number> {
    return this.deleteWhereSeq(message, gt);
  }

  private async deleteWhereSeq(
    message: Pick<MessageRow, 'conversation_id' | 'seq'>,
    compare: typeof gt,
  ): Promise<number> {
    const deleted = await this.db
      .delete(messages)
      .where(
        and(
          eq(messages.conversation_id, message.conversation_id),
          eq(messages.user_id, this.userId),
          compare(messages.seq, message.seq),
        ),
      )
      .returning({ id: messages.id });
    return deleted.length;
  }
}

/**
 * After a crash no reply may stay `streaming` (ARCHITECTURE §5): at start, replies left streaming
 * keep the text saved so far and become `interrupted`. Runs before the server takes requests.
 */
export const interruptAbandonedReplies = async (db: Db): Promise<number> => {
  const rows = await db
    .update(messages)
    .set({ status: 'interrupted' })
    .where(eq(messages.status, 'streaming'))
    .returning({ id: messages.id });
  return rows.length;
};
