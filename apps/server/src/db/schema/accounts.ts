import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.ts';
import { users } from './auth.ts';

// ---------------------------------------------------------------------------------------------
// The entities of spec §3.
// ---------------------------------------------------------------------------------------------

export const pricingPlans = pgTable('pricing_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  price_cents: integer('price_cents').notNull().default(0),
  daily_prompt_limit: integer('daily_prompt_limit'),
  allowed_providers: jsonb('allowed_providers').$type<string[]>().notNull().default([]),
  allowed_models: jsonb('allowed_models').$type<string[]>().notNull().default([]),
  /** Stripe Price a paid plan is sold as (Checkout); null for plans admins assign by hand. */
  stripe_price_id: text('stripe_price_id'),
  /** Largest single upload in bytes; null is the instance default (`fileLimitDefaults`). */
  max_file_bytes: bigint('max_file_bytes', { mode: 'number' }),
  /** Total bytes a user may store; null is the instance default (`fileLimitDefaults`). */
  storage_quota_bytes: bigint('storage_quota_bytes', { mode: 'number' }),
  /** Scheduled runs a user may keep (issue 19); null is the instance default (`scheduleLimits`). */
  max_schedules: integer('max_schedules'),
  /** The shortest interval a schedule may fire at, in minutes; null is the instance default. */
  min_schedule_interval_minutes: integer('min_schedule_interval_minutes'),
  ...timestamps,
});

export const profiles = pgTable(
  'profiles',
  {
    id: text('id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    public_name: text('public_name'),
    full_name: text('full_name'),
    plan_id: uuid('plan_id').references(() => pricingPlans.id, { onDelete: 'set null' }),
    role: text('role', { enum: ['user', 'admin', 'super_admin'] })
      .notNull()
      .default('user'),
    suspended_at: timestamp('suspended_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('profiles_public_name_key').on(sql`lower(${t.public_name})`),
    index('profiles_username_idx').on(t.username),
    check('profiles_role_check', sql`${t.role} in ('user', 'admin', 'super_admin')`),
  ],
);

/**
 * Exactly one row, written by the first sign-up. Its primary key is what makes "the first account
 * becomes super_admin" atomic: concurrent first sign-ups race on one insert and one wins.
 */
export const appBootstrap = pgTable(
  'app_bootstrap',
  {
    id: integer('id').primaryKey().default(1),
    first_user_id: text('first_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('app_bootstrap_singleton', sql`${t.id} = 1`)],
);

export const userSettings = pgTable('user_settings', {
  user_id: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  default_ai_provider: text('default_ai_provider'),
  default_ai_model: text('default_ai_model'),
  /** When the user hid the getting-started checklist (/start); null while it shows. */
  onboarding_dismissed_at: timestamp('onboarding_dismissed_at', { withTimezone: true }),
  updated_at: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});
