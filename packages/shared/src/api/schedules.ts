import { z } from 'zod';
import { providerIdSchema } from './keys.ts';

/**
 * Scheduled runs (issue 19): a saved prompt, a scenario, an agent task or a workflow, run on a
 * cron expression in an IANA time zone (DST-correct: 09:00 Europe/Berlin stays 09:00 local), each
 * occurrence exactly once across instances, with e-mailed results.
 */
export const scheduleLimits = {
  name: 80,
  /** Schedules one user may keep (a plan may set fewer). */
  perUser: 20,
  /** The shortest interval between two occurrences. */
  minIntervalMinutes: 1,
  /** Consecutive failures after which a schedule is disabled (with a mail saying so). */
  failuresBeforeDisable: 5,
  task: 20_000,
} as const;

/**
 * The bounds of a plan's own schedule limits (`max_schedules`, `min_schedule_interval_minutes`
 * on the plan; null there means `scheduleLimits.perUser` and `scheduleLimits.minIntervalMinutes`).
 */
export const schedulePlanBounds = {
  maxSchedules: { min: 0, max: 1000 },
  /** One minute to one week. */
  minIntervalMinutes: { min: 1, max: 7 * 24 * 60 },
} as const;

export const scheduleTargetSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('prompt'),
    prompt_id: z.uuid('Pick one of your saved prompts'),
    /** Values of the prompt's `{{variables}}`. */
    variables: z.record(z.string(), z.string().max(10_000)).default({}),
    provider: providerIdSchema,
    model: z.string().max(200).nullable().default(null),
  }),
  z.object({
    kind: z.literal('scenario'),
    scenario_id: z.uuid('Pick one of your scenarios'),
  }),
  z.object({
    kind: z.literal('agent'),
    agent_id: z.uuid('Pick one of your agents'),
    /** What the agent is asked each time. */
    task: z.string().trim().min(1, 'Say what the agent should do').max(scheduleLimits.task),
  }),
  z.object({
    kind: z.literal('workflow'),
    workflow_id: z.uuid('Pick one of your workflows'),
    inputs: z
      .record(z.string(), z.union([z.string().max(100_000), z.number(), z.boolean()]))
      .default({}),
    /** A pinned version; null follows the latest. */
    version: z.number().int().min(1).nullable().default(null),
  }),
]);
export type ScheduleTarget = z.infer<typeof scheduleTargetSchema>;

/** After downtime: `skip` the missed occurrences, or `run_once` for all of them together. */
export const missedRunPolicies = ['skip', 'run_once'] as const;

const fields = {
  name: z.string().trim().min(1, 'Give the schedule a name').max(scheduleLimits.name),
  target: scheduleTargetSchema,
  /** Five fields (minute hour day month weekday), as `cronstrue` describes them. */
  cron: z.string().trim().min(1, 'Give a cron expression').max(120),
  /** An IANA time zone, such as Europe/Berlin. */
  time_zone: z.string().trim().min(1).max(100),
  missed: z.enum(missedRunPolicies),
  email_started: z.boolean(),
  email_completed: z.boolean(),
  email_failed: z.boolean(),
};

export const createScheduleSchema = z.object({
  name: fields.name,
  target: fields.target,
  cron: fields.cron,
  time_zone: fields.time_zone.default('UTC'),
  missed: fields.missed.default('skip'),
  email_started: fields.email_started.default(false),
  email_completed: fields.email_completed.default(true),
  email_failed: fields.email_failed.default(true),
});
export type CreateSchedule = z.input<typeof createScheduleSchema>;

export const updateScheduleSchema = z
  .object(fields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' });

export const scheduleRunStatuses = [
  'running',
  'complete',
  'failed',
  /** An agent run that needed an approval: unattended runs never approve; the user is told. */
  'stopped',
  'skipped',
] as const;

export const scheduleRunSchema = z.object({
  id: z.string(),
  schedule_id: z.string(),
  /** The occurrence it ran for (the cron time), or the moment of a "run now". */
  occurrence_at: z.string(),
  trigger: z.enum(['cron', 'manual', 'missed']),
  status: z.enum(scheduleRunStatuses),
  output_text: z.string(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** A workflow target's run, for its per-step detail. */
  workflow_run_id: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

export const scheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  target: scheduleTargetSchema,
  /** What the target is called now (the prompt's title, the workflow's name…). */
  target_name: z.string(),
  cron: z.string(),
  time_zone: z.string(),
  /** The expression in words (cronstrue), in English. */
  description: z.string(),
  missed: z.enum(missedRunPolicies),
  email_started: z.boolean(),
  email_completed: z.boolean(),
  email_failed: z.boolean(),
  /** False while paused, or once disabled after repeated failures (`disabled_reason` says). */
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  consecutive_failures: z.number().int(),
  /** The next five occurrences (ISO instants); empty while paused. */
  next_runs: z.array(z.string()),
  last_run: scheduleRunSchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const scheduleListSchema = z.object({ schedules: z.array(scheduleSchema) });
export const scheduleRunListSchema = z.object({
  runs: z.array(scheduleRunSchema),
  next_cursor: z.string().nullable(),
});

/** `GET /rest/v1/schedules/{id}/runs?limit=&cursor=`: newest first, one page at a time. */
export const listScheduleRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** `GET /rest/v1/schedules/preview?cron=&time_zone=`: checks an expression as it is typed. */
export const schedulePreviewQuerySchema = z.object({
  cron: z.string().max(120),
  time_zone: z.string().max(100).default('UTC'),
});
export const schedulePreviewSchema = z.object({
  description: z.string(),
  next_runs: z.array(z.string()),
});
