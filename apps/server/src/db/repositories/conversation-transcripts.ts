import { and, asc, eq, gt, lte, max, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { messages } from '../schema/index.ts';

export type TranscriptMessage = Pick<
  typeof messages.$inferSelect,
  | 'seq'
  | 'role'
  | 'content'
  | 'provider'
  | 'model'
  | 'status'
  | 'sources'
  | 'error_code'
  | 'error_message'
  | 'created_at'
>;

/**
 * A conversation's current messages (answers replaced by a regenerate left out), read in pages of
 * write order so that an export of thousands of messages never holds them all at once.
 */
export class ConversationTranscriptsRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /** The newest `seq` of the conversation now: an export ends there, whatever is written next. */
  async lastSeq(conversationId: string): Promise<number | null> {
    const [row] = await this.db
      .select({ last: max(messages.seq) })
      .from(messages)
      .where(and(eq(messages.conversation_id, conversationId), eq(messages.user_id, this.userId)));
    return row?.last === null || row?.last === undefined ? null : Number(row.last);
  }

  /** Up to `limit` current messages written after `afterSeq` and up to `upToSeq`, oldest first. */
  page(
    conversationId: string,
    opts: { afterSeq: number; upToSeq: number; limit: number },
  ): Promise<TranscriptMessage[]> {
    return this.db
      .select({
        seq: messages.seq,
        role: messages.role,
        content: messages.content,
        provider: messages.provider,
        model: messages.model,
        status: messages.status,
        sources: messages.sources,
        error_code: messages.error_code,
        error_message: messages.error_message,
        created_at: messages.created_at,
      })
      .from(messages)
      .where(
        and(
          eq(messages.conversation_id, conversationId),
          eq(messages.user_id, this.userId),
          gt(messages.seq, opts.afterSeq),
          lte(messages.seq, opts.upToSeq),
          sql`${messages.superseded} is not true`,
        ),
      )
      .orderBy(asc(messages.seq))
      .limit(opts.limit);
  }
}
