import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { timestamps } from './columns.ts';

/**
 * A test set (issue 20): named cases (`test_cases.test_set_id`) run against what is under test —
 * a saved prompt, a scenario, a custom AI or an agent (`subject_kind` + `subject_id`, no foreign
 * key since it points at one of four tables; a subject deleted since is reported, not followed).
 */
export const testSets = pgTable(
  'test_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    subject_kind: text('subject_kind')
      .$type<'prompt' | 'scenario' | 'custom_ai' | 'agent'>()
      .notNull(),
    subject_id: uuid('subject_id').notNull(),
    /** The run dialog's first choice: `TestTarget[]`. */
    targets: jsonb('targets').$type<{ provider: string; model: string }[]>().notNull().default([]),
    repeats: integer('repeats').notNull().default(1),
    notify: boolean('notify').notNull().default(true),
    ...timestamps,
  },
  (t) => [index('test_sets_user_idx').on(t.user_id, t.created_at.desc(), t.id.desc())],
);

/**
 * One run of a set: its targets and repeats, and the cases and subject as they were when it
 * started (`plan`), so editing a case mid-run or later changes neither the run nor its matrix,
 * and a run resumed after a restart runs what it started with. `done` counts results stored.
 */
export const testRuns = pgTable(
  'test_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    test_set_id: uuid('test_set_id')
      .notNull()
      .references(() => testSets.id, { onDelete: 'cascade' }),
    /** The set's name when the run started. */
    name: text('name').notNull(),
    status: text('status')
      .$type<'queued' | 'running' | 'done' | 'failed' | 'cancelled'>()
      .notNull()
      .default('queued'),
    /** `'app'` from the web app, `'token'` through a personal access token (CI). */
    source: text('source').$type<'app' | 'token'>().notNull().default('app'),
    targets: jsonb('targets').$type<{ provider: string; model: string }[]>().notNull(),
    repeats: integer('repeats').notNull(),
    /** `{ subject, cases }` as they were at the start; the engine's own shape. */
    plan: jsonb('plan').$type<Record<string, unknown>>().notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    passed: integer('passed').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    cost_usd: doublePrecision('cost_usd'),
    estimated_cost_usd: doublePrecision('estimated_cost_usd'),
    /** The run it was compared with when it ended (the set's previous finished run). */
    baseline_run_id: uuid('baseline_run_id'),
    /** `TestRunSummary`, written when the run ends. */
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    error: text('error'),
    /** Set by a cancel; the worker stops at its next check, wherever it runs. */
    cancel_requested: boolean('cancel_requested').notNull().default(false),
    /** The instance running it (ADR 018); a gone one's run is resumed elsewhere. */
    instance_id: uuid('instance_id'),
    started_at: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finished_at: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    index('test_runs_user_idx').on(t.user_id, t.created_at.desc(), t.id.desc()),
    index('test_runs_set_idx').on(t.test_set_id, t.created_at.desc(), t.id.desc()),
    index('test_runs_active_idx')
      .on(t.status)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/**
 * One call of a run: case × target × repeat, with its output and each assertion's verdict.
 * Written in batches; the unique key makes a resumed run skip what is stored and never write a
 * result twice.
 */
export const testResults = pgTable(
  'test_results',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    run_id: uuid('run_id')
      .notNull()
      .references(() => testRuns.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    case_id: uuid('case_id').notNull(),
    target: integer('target').notNull(),
    repeat: integer('repeat').notNull(),
    input: text('input').notNull().default(''),
    output: text('output').notNull().default(''),
    error: text('error'),
    passed: boolean('passed').notNull(),
    /** `AssertionResult[]`. */
    assertions: jsonb('assertions').$type<unknown[]>().notNull().default([]),
    latency_ms: integer('latency_ms'),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    cost_usd: doublePrecision('cost_usd'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [uniqueIndex('test_results_cell_idx').on(t.run_id, t.case_id, t.target, t.repeat)],
);

/**
 * Personal access tokens (issue 20, for CI): only the SHA-256 of the token is stored; `hint` is
 * its first characters. Scoped (`['test_runs']`), expiring, revocable.
 */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    token_hash: text('token_hash').notNull(),
    hint: text('hint').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    last_used_at: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revoked_at: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    uniqueIndex('access_tokens_hash_idx').on(t.token_hash),
    index('access_tokens_user_idx').on(t.user_id, t.created_at.desc()),
  ],
);
