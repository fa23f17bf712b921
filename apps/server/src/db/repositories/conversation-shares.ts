import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, isNull, lte, max, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { conversationShares, conversations, messages, profiles } from '../schema/index.ts';

export type ConversationShareRow = typeof conversationShares.$inferSelect;

/** Only this is stored of a share token: a link's secret is never kept at rest. */
export const hashShareToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/**
 * The messages a share link shows: the user's and the model's, finished or cut off, that are
 * still current (not an answer replaced by a regenerate), up to `upToSeq` when given.
 */
const shareable = (conversationId: string, userId: string, upToSeq?: number): SQL =>
  and(
    eq(messages.conversation_id, conversationId),
    eq(messages.user_id, userId),
    inArray(messages.role, ['user', 'assistant']),
    inArray(messages.status, ['complete', 'interrupted']),
    sql`${messages.superseded} is not true`,
    upToSeq === undefined ? undefined : lte(messages.seq, upToSeq),
  )!;

/** The owner's side of share links: create (replacing the active one), look, revoke. */
export class ConversationSharesRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /**
   * A new link showing the conversation as it is now; the active link, if any, stops working.
   * Undefined when the conversation is not the user's; 'empty' when there is nothing to show.
   */
  async create(
    conversationId: string,
    tokenHash: string,
  ): Promise<{ share: ConversationShareRow; messageCount: number } | 'empty' | undefined> {
    return this.db.transaction(async (tx) => {
      // The row lock makes two links created at once end with one of them active.
      const [owned] = await tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(and(eq(conversations.id, conversationId), eq(conversations.user_id, this.userId)))
        .for('update');
      if (!owned) return undefined;
      const [shown] = await tx
        .select({ upTo: max(messages.seq), count: count() })
        .from(messages)
        .where(shareable(conversationId, this.userId));
      const upTo = shown?.upTo === null || shown?.upTo === undefined ? null : Number(shown.upTo);
      if (upTo === null) return 'empty';
      await tx
        .update(conversationShares)
        .set({ revoked_at: new Date() })
        .where(this.activeFor(conversationId));
      const [share] = await tx
        .insert(conversationShares)
        .values({
          conversation_id: conversationId,
          user_id: this.userId,
          token_hash: tokenHash,
          up_to_seq: upTo,
        })
        .returning();
      return { share: share!, messageCount: Number(shown!.count) };
    });
  }

  /**
   * The active link of the conversation (null when none) and how many messages it shows;
   * undefined when the conversation is not the user's.
   */
  async active(
    conversationId: string,
  ): Promise<{ share: ConversationShareRow | null; messageCount: number } | undefined> {
    const [row] = await this.db
      .select({ owned: conversations.id, share: conversationShares })
      .from(conversations)
      .leftJoin(
        conversationShares,
        and(
          eq(conversationShares.conversation_id, conversations.id),
          isNull(conversationShares.revoked_at),
        ),
      )
      .where(and(eq(conversations.id, conversationId), eq(conversations.user_id, this.userId)))
      .limit(1);
    if (!row) return undefined;
    if (!row.share) return { share: null, messageCount: 0 };
    const [shown] = await this.db
      .select({ count: count() })
      .from(messages)
      .where(shareable(conversationId, this.userId, row.share.up_to_seq));
    return { share: row.share, messageCount: Number(shown?.count ?? 0) };
  }

  /** Stops the active link (if any); false when the conversation is not the user's. */
  async revoke(conversationId: string): Promise<boolean> {
    const [owned] = await this.db
      .select({ id: conversations.id })
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), eq(conversations.user_id, this.userId)))
      .limit(1);
    if (!owned) return false;
    await this.db
      .update(conversationShares)
      .set({ revoked_at: new Date() })
      .where(this.activeFor(conversationId));
    return true;
  }

  private activeFor(conversationId: string): SQL {
    return and(
      eq(conversationShares.conversation_id, conversationId),
      eq(conversationShares.user_id, this.userId),
      isNull(conversationShares.revoked_at),
    )!;
  }
}

export type SharedConversationRows = {
  title: string;
  sharedAt: Date;
  messages: Pick<
    typeof messages.$inferSelect,
    'role' | 'content' | 'provider' | 'model' | 'status' | 'created_at'
  >[];
};

/**
 * What the link with this token hash shows, to anyone who has it: null when no active link has
 * it, or its owner's account is suspended. Only the columns the page shows are read.
 */
export const findSharedConversation = async (
  db: Db,
  tokenHash: string,
): Promise<SharedConversationRows | null> => {
  const [share] = await db
    .select({
      conversationId: conversationShares.conversation_id,
      userId: conversationShares.user_id,
      upToSeq: conversationShares.up_to_seq,
      sharedAt: conversationShares.created_at,
      title: conversations.title,
    })
    .from(conversationShares)
    .innerJoin(
      conversations,
      and(
        eq(conversations.id, conversationShares.conversation_id),
        eq(conversations.user_id, conversationShares.user_id),
      ),
    )
    .where(
      and(
        eq(conversationShares.token_hash, tokenHash),
        isNull(conversationShares.revoked_at),
        sql`not exists (select 1 from ${profiles} where ${profiles.id} = ${conversationShares.user_id} and ${profiles.suspended_at} is not null)`,
      ),
    )
    .limit(1);
  if (!share) return null;
  const rows = await db
    .select({
      role: messages.role,
      content: messages.content,
      provider: messages.provider,
      model: messages.model,
      status: messages.status,
      created_at: messages.created_at,
    })
    .from(messages)
    .where(shareable(share.conversationId, share.userId, Number(share.upToSeq)))
    .orderBy(asc(messages.seq));
  return { title: share.title, sharedAt: share.sharedAt, messages: rows };
};
