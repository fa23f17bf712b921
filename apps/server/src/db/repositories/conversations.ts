import { and, desc, eq, ilike, lt, or } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { containsPattern } from '../like.ts';
import { conversations, messages } from '../schema.ts';

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
  async list(opts: {
    limit: number;
    after?: ConversationCursor;
    search?: string;
  }): Promise<ConversationRow[]> {
    const pattern = opts.search ? containsPattern(opts.search) : null;
    const owned = pattern
      ? and(eq(conversations.user_id, this.userId), ilike(conversations.title, pattern))
      : eq(conversations.user_id, this.userId);
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

  /**
   * Spec §4: the conversation's files, then its messages, then the conversation, all or nothing.
   * (Files arrive with the storage service; until then a conversation owns none.)
   */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx
        .delete(messages)
        .where(and(eq(messages.conversation_id, id), eq(messages.user_id, this.userId)));
      const deleted = await tx
        .delete(conversations)
        .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)))
        .returning({ id: conversations.id });
      return deleted.length > 0;
    });
  }

  /** Moves the conversation to the top of the list's activity order. */
  async touch(id: string): Promise<void> {
    await this.db
      .update(conversations)
      .set({ updated_at: new Date() })
      .where(and(eq(conversations.id, id), eq(conversations.user_id, this.userId)));
  }
}

/** Cursors are opaque to clients: base64url of the last row's sort key. */
export const encodeCursor = (row: { created_at: Date; id: string }): string =>
  Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString('base64url');

export const decodeCursor = (cursor: string): ConversationCursor | null => {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = iso ? new Date(iso) : null;
  if (!createdAt || Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/i.test(id))
    return null;
  return { created_at: createdAt, id };
};
