import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { agents } from './agents.ts';
import { users } from './auth.ts';
import { timestamps } from './columns.ts';
import { customAis } from './custom-ais.ts';

/**
 * An embedded chat widget (issue 21): one of its owner's agents or custom AIs on other sites.
 * `public_id` is in the host page's source and grants nothing by itself. The signing secret for
 * visitor tokens is sealed with the server's secret box (it must be read back to verify HS256),
 * never stored or shown in clear after creation. Replies run on the owner's keys and quota,
 * inside the widget's budget.
 */
export const widgets = pgTable(
  'widgets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    public_id: text('public_id').notNull(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    agent_id: uuid('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    custom_ai_id: uuid('custom_ai_id').references(() => customAis.id, { onDelete: 'set null' }),
    /** Normalised origins; empty means none. */
    allowed_origins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    /** `WidgetAppearance`. */
    appearance: jsonb('appearance').$type<Record<string, unknown>>().notNull(),
    messages_per_visitor_hour: integer('messages_per_visitor_hour').notNull(),
    daily_tokens: integer('daily_tokens').notNull(),
    monthly_tokens: integer('monthly_tokens').notNull(),
    max_reply_tokens: integer('max_reply_tokens').notNull(),
    require_signed_visitors: boolean('require_signed_visitors').notNull().default(false),
    allowed_tools: jsonb('allowed_tools').$type<string[]>().notNull().default([]),
    /**
     * `WidgetToolArguments`: for each allowed HTTP or MCP tool, the arguments visitors may set
     * and the owner's fixed values; such a tool without one is not offered to visitors.
     */
    tool_arguments: jsonb('tool_arguments')
      .$type<Record<string, { visitor: string[]; fixed: Record<string, unknown> }>>()
      .notNull()
      .default({}),
    /** Visitors see the documents a reply cited (name and a short quote); off: none. */
    show_sources: boolean('show_sources').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    secret_sealed: text('secret_sealed').notNull(),
    secret_hint: text('secret_hint').notNull(),
    /** The budget period (`2026-11-25` or `2026-11`) the owner was last told about: one e-mail each. */
    budget_notice_period: text('budget_notice_period'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('widgets_public_id_idx').on(t.public_id),
    index('widgets_user_idx').on(t.user_id, t.created_at.desc()),
  ],
);

/**
 * A visitor of a widget. Anonymous ones are minted by the server (`external_id` null); signed
 * ones are the host site's `visitor_id` from a verified token, so their history follows them
 * across devices. `session_hash` is the SHA-256 of the iframe's current session token.
 */
export const widgetVisitors = pgTable(
  'widget_visitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    widget_id: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    external_id: text('external_id'),
    name: text('name'),
    signed: boolean('signed').notNull().default(false),
    blocked_at: timestamp('blocked_at', { withTimezone: true, mode: 'date' }),
    /**
     * A keyed hash of the network an anonymous visitor last came from (widget/visitor-address.ts):
     * a block holds for a while against new anonymous visitors from it. Never the address.
     */
    address_hash: text('address_hash'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    last_seen_at: timestamp('last_seen_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    index('widget_visitors_blocked_address_idx')
      .on(t.widget_id, t.address_hash)
      .where(sql`${t.blocked_at} is not null`),
    uniqueIndex('widget_visitors_external_idx')
      .on(t.widget_id, t.external_id)
      .where(sql`${t.external_id} is not null`),
    index('widget_visitors_widget_idx').on(t.widget_id, t.last_seen_at.desc()),
  ],
);

/** Session tokens of visitors (hashed): one per browser, several per signed visitor. */
export const widgetVisitorSessions = pgTable(
  'widget_visitor_sessions',
  {
    token_hash: text('token_hash').primaryKey(),
    visitor_id: uuid('visitor_id')
      .notNull()
      .references(() => widgetVisitors.id, { onDelete: 'cascade' }),
    widget_id: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [index('widget_visitor_sessions_visitor_idx').on(t.visitor_id)],
);

export const widgetConversations = pgTable(
  'widget_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    widget_id: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    visitor_id: uuid('visitor_id')
      .notNull()
      .references(() => widgetVisitors.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default(''),
    message_count: integer('message_count').notNull().default(0),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('widget_conversations_widget_idx').on(t.widget_id, t.updated_at.desc(), t.id.desc()),
    index('widget_conversations_visitor_idx').on(t.visitor_id, t.updated_at.desc()),
  ],
);

export const widgetMessages = pgTable(
  'widget_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversation_id: uuid('conversation_id')
      .notNull()
      .references(() => widgetConversations.id, { onDelete: 'cascade' }),
    widget_id: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    role: text('role').$type<'user' | 'assistant'>().notNull(),
    content: text('content').notNull().default(''),
    /** `WidgetSource[]`. */
    sources: jsonb('sources').$type<unknown[]>().notNull().default([]),
    status: text('status').$type<'done' | 'failed' | 'streaming'>().notNull().default('done'),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    /** The instance streaming a reply (ADR 018); a gone one's reply is failed. */
    instance_id: uuid('instance_id'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    index('widget_messages_conversation_idx').on(t.conversation_id, t.created_at),
    index('widget_messages_streaming_idx')
      .on(t.instance_id)
      .where(sql`${t.status} = 'streaming'`),
    index('widget_messages_search_idx').using('gin', sql`to_tsvector('simple', ${t.content})`),
  ],
);

/** Tokens and messages per widget per day: the budget's and the owner's usage view's source. */
export const widgetUsageDays = pgTable(
  'widget_usage_days',
  {
    widget_id: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    messages: integer('messages').notNull().default(0),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    /**
     * Tokens held by replies that started this day and have not ended: each holds its maximum
     * until it settles to what it spent (`widget_budget_holds`, docs/SECURITY.md "Budgets under
     * races").
     */
    reserved_tokens: integer('reserved_tokens').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.widget_id, t.day] })],
);

/**
 * One reply's hold on its widget's budget, counted in `widget_usage_days.reserved_tokens` of the
 * day it started. The reply's end deletes it and settles the day to the real tokens; a hold whose
 * instance's lease ran out, or that outlived any reply, is released by the next request the
 * budget would refuse.
 */
export const widgetBudgetHolds = pgTable(
  'widget_budget_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    widget_id: uuid('widget_id')
      .notNull()
      .references(() => widgets.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    tokens: integer('tokens').notNull(),
    /** The server instance streaming the reply (`server_instances`). */
    instance_id: uuid('instance_id').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('widget_budget_holds_widget_idx').on(t.widget_id)],
);
