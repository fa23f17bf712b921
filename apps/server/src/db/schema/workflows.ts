import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { timestamps } from './columns.ts';

/**
 * A workflow (issue 19): typed inputs and an ordered list of steps (the contract's
 * `WorkflowInput[]` and `WorkflowStep[]`). `version` goes up with every saved change; each state
 * is kept in `workflow_versions`.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    inputs: jsonb('inputs').$type<unknown[]>().notNull().default([]),
    steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
    version: integer('version').notNull().default(1),
    ...timestamps,
  },
  (t) => [index('workflows_user_created_idx').on(t.user_id, t.created_at.desc(), t.id)],
);

export const workflowVersions = pgTable(
  'workflow_versions',
  {
    workflow_id: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** `{ name, description, inputs, steps }` after the change. */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workflow_id, t.version] })],
);

/**
 * One run of a workflow, with every step's status, output, tokens, cost and duration
 * (`WorkflowStepRun[]` in `steps`), written as it goes so the run page shows live progress.
 */
export const workflowRuns = pgTable(
  'workflow_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workflow_id: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    workflow_name: text('workflow_name').notNull(),
    version: integer('version').notNull(),
    /** The steps as they were at `version` (what this run runs, and a retry runs again). */
    definition: jsonb('definition').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['queued', 'running', 'complete', 'failed', 'cancelled'] })
      .notNull()
      .default('queued'),
    trigger: text('trigger', { enum: ['manual', 'schedule'] })
      .notNull()
      .default('manual'),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull().default({}),
    steps: jsonb('steps').$type<unknown[]>().notNull().default([]),
    output: jsonb('output'),
    error_code: text('error_code'),
    error_message: text('error_message'),
    error_step_id: text('error_step_id'),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    cost_usd: real('cost_usd'),
    /** Set when the user asks to cancel; the running step checks it. */
    cancel_requested: boolean('cancel_requested').notNull().default(false),
    /** The instance running it (`server_instances`, ADR 018); a gone one's run is failed. */
    instance_id: uuid('instance_id'),
    started_at: timestamp('started_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('workflow_runs_workflow_created_idx').on(t.workflow_id, t.created_at.desc(), t.id),
    index('workflow_runs_user_status_idx').on(t.user_id, t.status),
    // The sweep looks only at running runs.
    index('workflow_runs_running_idx')
      .on(t.instance_id)
      .where(sql`${t.status} = 'running'`),
  ],
);

/**
 * A scheduled run (issue 19): a target (`ScheduleTarget`) on a cron expression in an IANA time
 * zone. `next_run_at` is the next occurrence (computed in that zone, so DST holds); null while
 * paused or disabled.
 */
export const schedules = pgTable(
  'schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    target: jsonb('target').$type<Record<string, unknown>>().notNull(),
    cron: text('cron').notNull(),
    time_zone: text('time_zone').notNull().default('UTC'),
    missed: text('missed', { enum: ['skip', 'run_once'] })
      .notNull()
      .default('skip'),
    email_started: boolean('email_started').notNull().default(false),
    email_completed: boolean('email_completed').notNull().default(true),
    email_failed: boolean('email_failed').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    disabled_reason: text('disabled_reason'),
    consecutive_failures: integer('consecutive_failures').notNull().default(0),
    next_run_at: timestamp('next_run_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('schedules_user_created_idx').on(t.user_id, t.created_at.desc(), t.id),
    index('schedules_due_idx')
      .on(t.next_run_at)
      .where(sql`${t.enabled}`),
  ],
);

/**
 * One occurrence of a schedule. The unique (schedule, occurrence) pair is the claim: of several
 * instances, only the one whose insert lands runs it (idempotent per occurrence).
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    schedule_id: uuid('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    user_id: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    occurrence_at: timestamp('occurrence_at', { withTimezone: true }).notNull(),
    trigger: text('trigger', { enum: ['cron', 'manual', 'missed'] })
      .notNull()
      .default('cron'),
    status: text('status', { enum: ['running', 'complete', 'failed', 'stopped', 'skipped'] })
      .notNull()
      .default('running'),
    output_text: text('output_text').notNull().default(''),
    input_tokens: integer('input_tokens').notNull().default(0),
    output_tokens: integer('output_tokens').notNull().default(0),
    cost_usd: real('cost_usd'),
    error_code: text('error_code'),
    error_message: text('error_message'),
    workflow_run_id: uuid('workflow_run_id'),
    /**
     * The instance that claimed it, then the one running it (ADR 018): an occurrence still
     * `running` once that instance is gone is failed.
     */
    instance_id: uuid('instance_id'),
    started_at: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('schedule_runs_occurrence_idx').on(t.schedule_id, t.occurrence_at),
    index('schedule_runs_schedule_started_idx').on(t.schedule_id, t.started_at.desc()),
    index('schedule_runs_running_idx')
      .on(t.instance_id)
      .where(sql`${t.status} = 'running'`),
  ],
);
