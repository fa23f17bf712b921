import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { users } from './auth.ts';
import { customAis } from './custom-ais.ts';

export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default('New Conversation'),
    /** Instructions sent before every turn of this conversation; empty for none. */
    system_prompt: text('system_prompt').notNull().default(''),
    /**
     * Knowledge bases every reply searches and cites (issue 17). No foreign key on an array:
     * ids of bases deleted since are skipped when read, and the owner is checked then too.
     */
    knowledge_base_ids: uuid('knowledge_base_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** The custom AI it talks to (issue 18); null for a plain model, or once that AI is gone. */
    custom_ai_id: uuid('custom_ai_id').references((): AnyPgColumn => customAis.id, {
      onDelete: 'set null',
    }),
    /** When the user pinned it to the top of their list; null when not pinned. */
    pinned_at: timestamp('pinned_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('conversations_user_created_idx').on(t.user_id, t.created_at.desc(), t.id.desc()),
    index('conversations_user_pinned_idx')
      .on(t.user_id, t.pinned_at.desc())
      .where(sql`${t.pinned_at} is not null`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * Write order. Timestamps tie (PGlite has millisecond clocks; `now()` is fixed per
     * transaction), so a user message and its reply are ordered by this, never by time.
     */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    conversation_id: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull().default(''),
    role: text('role', { enum: ['user', 'assistant', 'system'] }).notNull(),
    provider: text('provider'),
    model: text('model'),
    reply_to_id: uuid('reply_to_id'),
    sources: jsonb('sources').$type<unknown[]>().notNull().default([]),
    /** Files sent with a user message: `{ id, name, content_type, size_bytes }` each. */
    attachments: jsonb('attachments').$type<unknown[]>().notNull().default([]),
    status: text('status', { enum: ['complete', 'streaming', 'interrupted', 'error'] })
      .notNull()
      .default('complete'),
    /** The server instance writing a reply while it streams (`server_instances`, no cascade). */
    instance_id: uuid('instance_id'),
    /**
     * An earlier answer replaced by a regenerate. It is kept so the user can page between
     * versions, but it is not sent as context, searched, shared or exported.
     */
    superseded: boolean('superseded').notNull().default(false),
    /** Why a reply failed or was cut off (a typed error code and its message); null otherwise. */
    error_code: text('error_code'),
    error_message: text('error_message'),
    /**
     * An agent's reply (issue 18): each tool call with its arguments, state, result or error
     * and duration (`StoredToolCall` in the contract), in the order the model made them.
     */
    tool_calls: jsonb('tool_calls').$type<unknown[]>().notNull().default([]),
    /** An agent's reply: its run (`agent_runs`; no foreign key, the run is written after). */
    agent_run_id: uuid('agent_run_id'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_conversation_seq_idx').on(t.conversation_id, t.seq),
    index('messages_user_idx').on(t.user_id),
    // The versions of an answer: every reply to the same message.
    index('messages_reply_to_idx').on(t.reply_to_id),
    // Start-up recovery and the sweeper look only at replies still streaming.
    index('messages_streaming_idx')
      .on(t.instance_id)
      .where(sql`${t.status} = 'streaming'`),
    // Message search: the repository matches exactly this expression.
    index('messages_search_idx').using('gin', sql`to_tsvector('simple', ${t.content})`),
  ],
);

/**
 * Read-only share links. Only a hash of the link's token is kept; a link shows the conversation
 * up to `up_to_seq`, as it was when shared, and stops working once revoked.
 */
export const conversationShares = pgTable(
  'conversation_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversation_id: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: text('token_hash').notNull(),
    up_to_seq: bigint('up_to_seq', { mode: 'number' }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('conversation_shares_token_idx').on(t.token_hash),
    // At most one active link per conversation.
    uniqueIndex('conversation_shares_active_idx')
      .on(t.conversation_id)
      .where(sql`${t.revoked_at} is null`),
  ],
);
