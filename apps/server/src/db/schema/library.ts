import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
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
import { testSets } from './test-runs.ts';

/**
 * Users' own prompts and scenarios, and the public prompt library and scenarios cookbook as
 * admins curate them (`/admin/prompts`): one row each. Authors share (`is_public`: submitted to
 * the curation queue); admins publish, unpublish and feature.
 */
const curatedColumns = {
  id: uuid('id').primaryKey().defaultRandom(),
  user_id: text('user_id').references(() => users.id, { onDelete: 'set null' }),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  category: text('category').notNull().default('General'),
  is_public: boolean('is_public').notNull().default(false),
  published: boolean('published').notNull().default(false),
  featured: boolean('featured').notNull().default(false),
  ...timestamps,
};

export const prompts = pgTable(
  'prompts',
  {
    ...curatedColumns,
    content: text('content').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    /** The published library entry this prompt was copied from; kept null once that is gone. */
    source_id: uuid('source_id').references((): AnyPgColumn => prompts.id, {
      onDelete: 'set null',
    }),
    favorite: boolean('favorite').notNull().default(false),
    /** Messages sent with this prompt (chosen with `/` in the composer). */
    use_count: integer('use_count').notNull().default(0),
    last_used_at: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    /** The number of the latest saved version (prompt_versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('prompts_user_idx').on(t.user_id, t.created_at.desc(), t.id.desc()),
    index('prompts_published_idx').on(t.published, t.featured),
    index('prompts_source_idx')
      .on(t.source_id)
      .where(sql`${t.source_id} is not null`),
  ],
);

export const scenarios = pgTable(
  'scenarios',
  {
    ...curatedColumns,
    /** The cookbook's original form: the opening prompt and follow-up steps, in order. */
    steps: jsonb('steps').$type<string[]>().notNull().default([]),
    system_prompt: text('system_prompt').notNull().default(''),
    /** The prompt sent to every target; `{{name}}` / `{{name|default}}` variables allowed. */
    user_prompt: text('user_prompt').notNull().default(''),
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    parameters: jsonb('parameters')
      .$type<{ temperature?: number | null; max_tokens?: number | null }>()
      .notNull()
      .default({}),
    targets: jsonb('targets').$type<{ provider: string; model: string }[]>().notNull().default([]),
    /** The published cookbook entry this scenario was copied from; null once that is gone. */
    source_id: uuid('source_id').references((): AnyPgColumn => scenarios.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    index('scenarios_user_idx').on(t.user_id, t.created_at.desc(), t.id.desc()),
    index('scenarios_published_idx').on(t.published, t.featured),
    index('scenarios_source_idx')
      .on(t.source_id)
      .where(sql`${t.source_id} is not null`),
  ],
);

/** Every save of a prompt, numbered from 1; restoring one saves it again as the newest. */
export const promptVersions = pgTable(
  'prompt_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    prompt_id: uuid('prompt_id')
      .notNull()
      .references(() => prompts.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    content: text('content').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [uniqueIndex('prompt_versions_prompt_version_idx').on(t.prompt_id, t.version)],
);

/** One target's outcome in a scenario run. */
export type ScenarioRunResult = {
  provider: string;
  model: string;
  text: string;
  ttft_ms: number | null;
  latency_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  error: { code: string; message: string } | null;
  /** The user's rating of this column, 1–5. */
  rating: number | null;
};

/** A side-by-side run of a scenario (or of an unsaved setup), kept so it can be reopened. */
export const scenarioRuns = pgTable(
  'scenario_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scenario_id: uuid('scenario_id').references(() => scenarios.id, { onDelete: 'set null' }),
    /** The scenario's title when it ran, or the first words of an unsaved setup's prompt. */
    title: text('title').notNull(),
    system_prompt: text('system_prompt').notNull(),
    /** The prompt as sent, variables filled in. */
    user_prompt: text('user_prompt').notNull(),
    variables: jsonb('variables').$type<Record<string, string>>().notNull(),
    parameters: jsonb('parameters')
      .$type<{ temperature?: number | null; max_tokens?: number | null }>()
      .notNull(),
    status: text('status').$type<'running' | 'done'>().notNull().default('running'),
    results: jsonb('results').$type<ScenarioRunResult[]>().notNull(),
    /** The index of the column the user picked as the best answer. */
    winner: integer('winner'),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('scenario_runs_user_idx').on(t.user_id, t.created_at.desc(), t.id.desc()),
    index('scenario_runs_scenario_idx')
      .on(t.scenario_id, t.created_at.desc(), t.id.desc())
      .where(sql`${t.scenario_id} is not null`),
  ],
);

/**
 * Cases for the test runner (issue 20), saved now from a scenario run's column: the input, the
 * answer taken as expected, and where it came from.
 */
export const testCases = pgTable(
  'test_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The test set it belongs to; none until the test runner files it. */
    test_set_id: uuid('test_set_id').references(() => testSets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    system_prompt: text('system_prompt').notNull().default(''),
    prompt: text('prompt').notNull(),
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    expected_output: text('expected_output'),
    /** Where the case came from: the scenario, its run and the column's provider and model. */
    scenario_id: uuid('scenario_id').references(() => scenarios.id, { onDelete: 'set null' }),
    scenario_run_id: uuid('scenario_run_id').references(() => scenarioRuns.id, {
      onDelete: 'set null',
    }),
    provider: text('provider'),
    model: text('model'),
    /** `Assertion[]` (issue 20). */
    assertions: jsonb('assertions').$type<unknown[]>().notNull().default([]),
    /** Order within its set. */
    position: integer('position').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('test_cases_user_idx').on(t.user_id, t.created_at.desc(), t.id.desc()),
    index('test_cases_set_idx')
      .on(t.test_set_id, t.position, t.created_at)
      .where(sql`${t.test_set_id} is not null`),
  ],
);

/**
 * What the public library's trends and "most used" count: each copy of a published entry and
 * each run of a copied cookbook scenario, as an append-only log. An event outlives the copy it
 * was made with (a user deleting their copy takes nothing back) and goes with its user's
 * account. `item_id` is the public entry (prompts or scenarios, by `kind`), so it has no
 * foreign key: an event of an entry since deleted or unpublished is simply never shown.
 */
export const libraryUses = pgTable(
  'library_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['prompt', 'scenario'] }).notNull(),
    item_id: uuid('item_id').notNull(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    action: text('action', { enum: ['copy', 'run'] }).notNull(),
    created_at: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
  },
  (t) => [
    // Trends, and discover sorted by use: each kind and action over the last 7 or 30 days.
    index('library_uses_trend_idx').on(t.kind, t.action, t.created_at),
    // The uses of one page of discover's entries.
    index('library_uses_item_idx').on(t.item_id, t.created_at),
    check('library_uses_kind_check', sql`${t.kind} in ('prompt', 'scenario')`),
    check('library_uses_action_check', sql`${t.action} in ('copy', 'run')`),
  ],
);
