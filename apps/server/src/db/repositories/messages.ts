import { and, asc, eq } from 'drizzle-orm';
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
}
