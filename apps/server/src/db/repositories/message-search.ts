import { and, desc, eq, sql } from 'drizzle-orm';
import { messageSearch } from '@chorus/shared/message-search';
import type { Db } from '../client.ts';
import { conversations, messages } from '../schema/index.ts';

export type MessageSearchRow = {
  message_id: string;
  conversation_id: string;
  conversation_title: string;
  role: (typeof messages.$inferSelect)['role'];
  snippet: string;
  created_at: Date;
};

/** The snippet is cut from this much of a message's start (a headline parses all it is given). */
const snippetSourceChars = 20_000;

const { markStart, markEnd } = messageSearch;
const headlineOptions = `StartSel=${markStart}, StopSel=${markEnd}, MaxFragments=1, MaxWords=24, MinWords=8`;

/**
 * A tsquery that finds every word as a prefix of a word of the text, all of them. The words are
 * letters and digits only (`searchWords`), so nothing in them is tsquery syntax, and the query
 * is sent as a bound parameter, never spliced into SQL.
 */
export const prefixQuery = (words: string[]): string => words.map((w) => `${w}:*`).join(' & ');

export class MessageSearchRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /**
   * The user's messages that hold every one of `words` (as prefixes), newest first, with their
   * conversation's title and a snippet around the matches. Replies replaced by a regenerate are
   * not searched. The match is `to_tsvector('simple', content)`, exactly the expression of
   * `messages_search_idx`, so the GIN index answers it.
   */
  async search(words: string[], limit: number): Promise<MessageSearchRow[]> {
    if (words.length === 0) return [];
    const query = sql`to_tsquery('simple', ${prefixQuery(words)})`;
    const matches = this.db
      .select({
        id: messages.id,
        seq: messages.seq,
        conversation_id: messages.conversation_id,
        role: messages.role,
        content: messages.content,
        created_at: messages.created_at,
      })
      .from(messages)
      .where(
        and(
          eq(messages.user_id, this.userId),
          sql`not "messages"."superseded"`,
          sql`to_tsvector('simple', ${messages.content}) @@ ${query}`,
        ),
      )
      .orderBy(desc(messages.created_at), desc(messages.seq))
      .limit(limit)
      .as('matches');
    // The headline is made only for the page of hits, after the limit.
    const text = sql`translate(left(${matches.content}, ${snippetSourceChars}), ${markStart + markEnd}, '')`;
    return this.db
      .select({
        message_id: matches.id,
        conversation_id: matches.conversation_id,
        conversation_title: conversations.title,
        role: matches.role,
        snippet: sql<string>`ts_headline('simple', ${text}, ${query}, ${headlineOptions})`,
        created_at: matches.created_at,
      })
      .from(matches)
      .innerJoin(
        conversations,
        and(eq(conversations.id, matches.conversation_id), eq(conversations.user_id, this.userId)),
      )
      .orderBy(desc(matches.created_at), desc(matches.seq));
  }
}
