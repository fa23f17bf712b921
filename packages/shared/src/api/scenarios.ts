import { z } from 'zod';
import { providerIdSchema } from './keys.ts';
import { promptLimits, variableValuesSchema } from './prompts.ts';

/** Field limits of a scenario, in characters, and how many models one run compares. */
export const scenarioLimits = {
  title: 200,
  description: 2_000,
  category: 60,
  systemPrompt: 20_000,
  userPrompt: 20_000,
  model: 200,
  minTargets: 1,
  maxTargets: 8,
  /** Largest `max_tokens` a scenario may ask each model for. */
  maxTokens: 32_000,
  perUser: 2_000,
} as const;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en')} characters`);

export const scenarioTargetSchema = z.object({
  provider: providerIdSchema,
  /** A model of the provider; empty for its default. */
  model: text('The model', scenarioLimits.model).default(''),
});
export type ScenarioTarget = z.infer<typeof scenarioTargetSchema>;

export const scenarioParametersSchema = z
  .object({
    temperature: z
      .number({ error: 'The temperature must be a number' })
      .min(0, 'The temperature is between 0 and 2')
      .max(2, 'The temperature is between 0 and 2')
      .nullable()
      .optional(),
    max_tokens: z
      .number({ error: 'Max tokens must be a whole number' })
      .int('Max tokens must be a whole number')
      .min(1, 'Max tokens is at least 1')
      .max(
        scenarioLimits.maxTokens,
        `Max tokens is at most ${scenarioLimits.maxTokens.toLocaleString('en')}`,
      )
      .nullable()
      .optional(),
  })
  .strict();
export type ScenarioParameters = z.infer<typeof scenarioParametersSchema>;

const targetsSchema = z
  .array(scenarioTargetSchema, { error: 'targets must be a list of providers and models' })
  .min(scenarioLimits.minTargets, 'Add at least one model to compare')
  .max(scenarioLimits.maxTargets, `Compare at most ${scenarioLimits.maxTargets} models at once`);

const systemPromptSchema = text('The system prompt', scenarioLimits.systemPrompt);

/** What a run sends: saved in a scenario, or given inline to `scenario-run`. */
const setupFields = {
  system_prompt: systemPromptSchema.default(''),
  user_prompt: text('The prompt', scenarioLimits.userPrompt).min(1, 'Write the prompt to send'),
  variables: variableValuesSchema.default({}),
  parameters: scenarioParametersSchema.default({}),
  targets: targetsSchema,
};

export const scenarioSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  system_prompt: z.string(),
  user_prompt: z.string(),
  variables: z.record(z.string(), z.string()),
  parameters: scenarioParametersSchema,
  targets: z.array(scenarioTargetSchema),
  /** When it last ran; null if never. */
  last_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Scenario = z.infer<typeof scenarioSchema>;

export const createScenarioSchema = z
  .object({
    title: text('The title', scenarioLimits.title).min(1, 'Give the scenario a title'),
    description: text('The description', scenarioLimits.description).default(''),
    category: text('The category', scenarioLimits.category).default(''),
    ...setupFields,
  })
  .strict();
export type CreateScenario = z.input<typeof createScenarioSchema>;

export const updateScenarioSchema = z
  .object({
    title: text('The title', scenarioLimits.title).min(1, 'Give the scenario a title').optional(),
    description: text('The description', scenarioLimits.description).optional(),
    category: text('The category', scenarioLimits.category).optional(),
    // Not `setupFields.system_prompt.optional()`: its default would fill in '' when left out.
    system_prompt: systemPromptSchema.optional(),
    user_prompt: text('The prompt', scenarioLimits.userPrompt)
      .min(1, 'Write the prompt to send')
      .optional(),
    variables: variableValuesSchema.optional(),
    parameters: scenarioParametersSchema.optional(),
    targets: targetsSchema.optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((v) => v !== undefined), {
    message: 'Send at least one field to change',
  });
export type UpdateScenario = z.input<typeof updateScenarioSchema>;

export const listScenariosQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(200).optional(),
});

export const scenarioPageSchema = z.object({
  items: z.array(scenarioSchema),
  next_cursor: z.string().nullable(),
});
export type ScenarioPage = z.infer<typeof scenarioPageSchema>;

/**
 * `POST /functions/v1/scenario-run`: a saved scenario by id (its setup may be overridden field by
 * field, e.g. other variable values), or a whole setup inline. Streams NDJSON unless `stream` is
 * false.
 */
export const scenarioRunRequestSchema = z
  .object({
    scenario_id: z.uuid({ error: 'scenario_id must be a scenario id' }).optional(),
    title: text('The title', scenarioLimits.title).optional(),
    system_prompt: systemPromptSchema.optional(),
    user_prompt: text('The prompt', scenarioLimits.userPrompt)
      .min(1, 'Write the prompt to send')
      .optional(),
    variables: variableValuesSchema.optional(),
    parameters: scenarioParametersSchema.optional(),
    targets: targetsSchema.optional(),
    stream: z.boolean().default(true),
  })
  .strict()
  .refine((r) => r.scenario_id || (r.user_prompt && r.targets), {
    message: 'Send a scenario_id, or a user_prompt and targets',
    path: ['scenario_id'],
  });
export type ScenarioRunRequest = z.input<typeof scenarioRunRequestSchema>;

export const runErrorSchema = z.object({ code: z.string(), message: z.string() });

/** One target's column. */
export const scenarioRunResultSchema = z.object({
  provider: z.string(),
  model: z.string(),
  text: z.string(),
  ttft_ms: z.number().nullable(),
  latency_ms: z.number().nullable(),
  input_tokens: z.number().int().nullable(),
  output_tokens: z.number().int().nullable(),
  cost_usd: z.number().nullable(),
  error: runErrorSchema.nullable(),
  rating: z.number().int().min(1).max(5).nullable(),
});
export type ScenarioRunResult = z.infer<typeof scenarioRunResultSchema>;

export const scenarioRunStatusSchema = z.enum(['running', 'done', 'interrupted']);

export const scenarioRunSchema = z.object({
  id: z.string(),
  scenario_id: z.string().nullable(),
  title: z.string(),
  system_prompt: z.string(),
  /** As sent: variables filled in. */
  user_prompt: z.string(),
  variables: z.record(z.string(), z.string()),
  parameters: scenarioParametersSchema,
  status: scenarioRunStatusSchema,
  results: z.array(scenarioRunResultSchema),
  /** The column picked as best. */
  winner: z.number().int().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ScenarioRun = z.infer<typeof scenarioRunSchema>;

export const scenarioRunPageSchema = z.object({
  items: z.array(scenarioRunSchema),
  next_cursor: z.string().nullable(),
});
export type ScenarioRunPage = z.infer<typeof scenarioRunPageSchema>;

/** `"stream": false`: every column at once. */
export const scenarioRunResponseSchema = z.object({
  run_id: z.string(),
  results: z.array(scenarioRunResultSchema.omit({ rating: true })),
});
export type ScenarioRunResponse = z.infer<typeof scenarioRunResponseSchema>;

/**
 * The streamed run, one JSON object per line (`application/x-ndjson`): `start` first, then each
 * column's `delta`s and its `result` as they come, interleaved, then `end`.
 */
export type ScenarioRunEvent =
  | { type: 'start'; run_id: string; targets: { provider: string; model: string }[] }
  | { type: 'delta'; target: number; text: string }
  | { type: 'first_token'; target: number; ttft_ms: number }
  | { type: 'result'; target: number; result: Omit<ScenarioRunResult, 'rating'> }
  | { type: 'end'; run_id: string };

/** Rate the columns (1–5, or null to clear) and pick the winner (a column, or null). */
export const rateScenarioRunSchema = z
  .object({
    ratings: z
      .array(z.number().int().min(1, 'A rating is 1 to 5').max(5, 'A rating is 1 to 5').nullable())
      .max(scenarioLimits.maxTargets)
      .optional(),
    winner: z
      .number()
      .int()
      .min(0)
      .max(scenarioLimits.maxTargets - 1)
      .nullable()
      .optional(),
  })
  .strict()
  .refine((b) => b.ratings !== undefined || b.winner !== undefined, {
    message: 'Send ratings or a winner',
  });
export type RateScenarioRun = z.infer<typeof rateScenarioRunSchema>;

/** Save one column of a run as a test case: its answer becomes the expected output unless given. */
export const saveTestCaseSchema = z
  .object({
    target: z
      .number()
      .int()
      .min(0)
      .max(scenarioLimits.maxTargets - 1),
    name: text('The name', scenarioLimits.title).optional(),
    expected_output: text('The expected output', promptLimits.content).optional(),
  })
  .strict();

export const testCaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  system_prompt: z.string(),
  prompt: z.string(),
  variables: z.record(z.string(), z.string()),
  expected_output: z.string().nullable(),
  scenario_id: z.string().nullable(),
  scenario_run_id: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  created_at: z.string(),
});
export type TestCase = z.infer<typeof testCaseSchema>;

/** `GET /scenarios/{id}/runs`: newest first, one page at a time. */
export const listScenarioRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** `GET /test-cases`: the newest first; `unfiled=true` keeps those no test set holds yet. */
export const listTestCasesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  unfiled: z
    .enum(['true', 'false'], { error: 'unfiled must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});

export const testCaseListSchema = z.object({ items: z.array(testCaseSchema) });
export type TestCaseList = z.infer<typeof testCaseListSchema>;
