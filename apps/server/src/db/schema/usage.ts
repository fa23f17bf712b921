import { usageSources } from '@chorus/shared/api/usage';
import {
  bigint,
  date,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';

export const promptUsage = pgTable(
  'prompt_usage',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.date] })],
);

/**
 * One row per AI call (chat or proxy): what the back office's usage statistics and analytics
 * read. `prompt_usage` holds the per-day count quotas are enforced on.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What the call was for (`usageSources`): chat, proxy, scenario, agent, … */
    source: text('source', { enum: usageSources }).notNull().default('chat'),
    provider: text('provider').notNull(),
    model: text('model'),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    /** Estimated from the price table (`@chorus/shared/prices`); null when the price is unknown. */
    cost_usd: numeric('cost_usd', { precision: 14, scale: 6, mode: 'number' }),
    /** From the call's start to its end, and to its first token when it streamed. */
    latency_ms: integer('latency_ms'),
    ttft_ms: integer('ttft_ms'),
    status: text('status', { enum: ['ok', 'error'] })
      .notNull()
      .default('ok'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('usage_events_created_idx').on(t.created_at),
    index('usage_events_user_created_idx').on(t.user_id, t.created_at),
    index('usage_events_source_created_idx').on(t.source, t.created_at),
  ],
);

/** rate-limiter-flexible's Postgres store (its column names), shared by every server instance. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * Places of a per-user limit on work going on at once (agent runs streaming): places 1…N under
 * one primary key, so two requests can never take the same one, and the limit is never passed
 * however many ask at once (docs/SECURITY.md "Budgets under races"). A place belongs to the
 * instance doing the work; once that instance's lease runs out, or the place outlives any run,
 * it is free to take again.
 */
export const runSlots = pgTable(
  'run_slots',
  {
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    slot: integer('slot').notNull(),
    /** The run holding the place. */
    holder: uuid('holder').notNull(),
    instance_id: uuid('instance_id').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.kind, t.slot] })],
);
