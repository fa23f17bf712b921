import { and, desc, eq, lt, or } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { conversations } from '../schema.ts';

export type ConversationRow = typeof conversations.$inferSelect;

/** Spec §3: 'New Conversation' by default; 'New Chat' plus the current time for an empty title. */
export const conversationTitle = (title: string | undefined, now = new Date()): string => {
  if (title === undefined) return 'New Conversation';
  const trimmed = title.trim();
  return trimmed === ''
    ? `New Chat ${now.toLocaleTimeString('en-GB', { timeZone: 'UTC' })}`
    : trimmed;
};

export type ConversationCursor = { created_at: Date; id: string };

export class ConversationsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  async create(title?: string): Promise<ConversationRow> {
    const [row] = await this.db
      .insert(conversations)
      .values({ user_id: this.userId, title: conversationTitle(title) })
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

  /** Newest first, keyset-paginated so the ten-thousandth conversation costs what the first does. */
  async list(opts: { limit: number; after?: ConversationCursor }): Promise<ConversationRow[]> {
    const owned = eq(conversations.user_id, this.userId);
    const page = opts.after
      ? and(
          owned,
          or(
            lt(conversations.created_at, opts.after.created_at),
            and(
              eq(conversations.created_at, opts.after.created_at),
              lt(conversations.id, opts.after.id),
            ),
          ),
        )
      : owned;
    return this.db
      .select()
      .from(conversations)
      .where(page)
      .orderBy(desc(conversations.created_at), desc(conversations.id))
      .limit(opts.limit);
  }

  async rename(id: string, title: string): Promise<ConversationRow | undefined> {
    const [row] = await this.db
      .update(conversations)
      .set({ title: conversationTitle(title) })
      .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)))
      .returning();
    return row;
  }

  /** Messages go with the conversation (foreign key cascade). */
  async delete(id: string): Promise<boolean> {
    const deleted = await this.db
      .delete(conversations)
      .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)))
      .returning({ id: conversations.id });
    return deleted.length > 0;
  }
}
