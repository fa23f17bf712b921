import { z } from 'zod';
import { providerIdSchema } from './keys.ts';

/**
 * Workflows (issue 19): a linear pipeline of typed steps with optional conditions — not a graph.
 * Data moves between steps by logic-less substitution: `{{inputs.name}}` and
 * `{{steps.<id>.output}}` (a JSON output's field: `{{steps.<id>.output.field}}`). Conditions are
 * CEL expressions (`@marcbachmann/cel-js`) over `inputs` and `steps`. No JavaScript anywhere.
 */
export const workflowLimits = {
  name: 80,
  description: 1_000,
  inputs: 20,
  steps: 20,
  template: 20_000,
  expression: 1_000,
  /** Workflows one user may keep. */
  perUser: 100,
  /** A run's whole time. */
  runTimeoutMs: 10 * 60_000,
  /** Input and output tokens of all a run's model calls. */
  tokenBudget: 200_000,
  /** Estimated cost of all a run's model calls, in US dollars. */
  costBudgetUsd: 5,
  /** Characters of a step's output kept and passed on. */
  outputChars: 50_000,
} as const;

export const stepIdPattern = /^[a-z][a-z0-9_]{0,39}$/;
export const inputNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]{0,39}$/;

export const workflowInputTypes = ['text', 'number', 'boolean'] as const;

export const workflowInputSchema = z.object({
  name: z
    .string()
    .regex(
      inputNamePattern,
      'An input name starts with a letter or _ and has only letters, digits and _',
    ),
  label: z.string().trim().max(80).default(''),
  type: z.enum(workflowInputTypes).default('text'),
  required: z.boolean().default(true),
  /** Used when a run leaves the input out. */
  default: z
    .union([z.string().max(10_000), z.number(), z.boolean()])
    .nullable()
    .default(null),
});
export type WorkflowInput = z.infer<typeof workflowInputSchema>;

const template = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .max(workflowLimits.template, `${label} is at most 20,000 characters`);

const stepBase = {
  id: z
    .string({ error: 'A step needs an id' })
    .regex(stepIdPattern, 'A step id is lower-case letters, digits and _, starting with a letter'),
  /** What the editor and the run page call it. */
  name: z.string().trim().max(80).default(''),
};

/** A model call: a provider and model, or one of your custom AIs or agents. */
export const promptStepSchema = z.object({
  ...stepBase,
  kind: z.literal('prompt'),
  provider: providerIdSchema.nullable().default(null),
  model: z.string().max(200).nullable().default(null),
  custom_ai_id: z.uuid().nullable().default(null),
  agent_id: z.uuid().nullable().default(null),
  system: template('The instructions').default(''),
  prompt: template('The prompt').min(1, 'A prompt step needs a prompt'),
  temperature: z.number().min(0).max(2).nullable().default(null),
});

export const knowledgeSearchStepSchema = z.object({
  ...stepBase,
  kind: z.literal('knowledge_search'),
  knowledge_base_ids: z.array(z.uuid()).min(1, 'Pick at least one knowledge base').max(10),
  query: template('The query').min(1, 'A search step needs a query'),
  top_k: z.number().int().min(1).max(20).default(5),
});

export const httpToolStepSchema = z.object({
  ...stepBase,
  kind: z.literal('http_tool'),
  tool_id: z.uuid('Pick one of your HTTP tools'),
  /** Each input property of the tool, as a template. */
  input: z.record(z.string(), template('A tool input')).default({}),
});

/** Skips every later step unless its CEL expression holds (the run then ends complete). */
export const conditionStepSchema = z.object({
  ...stepBase,
  kind: z.literal('condition'),
  expression: z
    .string()
    .trim()
    .min(1, 'A condition needs an expression')
    .max(workflowLimits.expression, 'A condition is at most 1,000 characters'),
});

/** `template`: a new text from a template; `extract_json`: the JSON in a text (or a field of it). */
export const transformStepSchema = z.object({
  ...stepBase,
  kind: z.literal('transform'),
  mode: z.enum(['template', 'extract_json']),
  /** `template`: the text to make. `extract_json`: the text to read JSON from. */
  template: template('The template').min(1, 'A transform step needs a template'),
  /** `extract_json` only: a dotted path into the JSON (`items.0.name`); empty for all of it. */
  path: z.string().max(200).default(''),
});

export const workflowStepSchema = z.discriminatedUnion('kind', [
  promptStepSchema,
  knowledgeSearchStepSchema,
  httpToolStepSchema,
  conditionStepSchema,
  transformStepSchema,
]);
export type WorkflowStep = z.infer<typeof workflowStepSchema>;
export type WorkflowStepKind = WorkflowStep['kind'];
export const workflowStepKinds = [
  'prompt',
  'knowledge_search',
  'http_tool',
  'condition',
  'transform',
] as const satisfies readonly WorkflowStepKind[];

const fields = {
  name: z.string().trim().min(1, 'Give the workflow a name').max(workflowLimits.name),
  description: z.string().trim().max(workflowLimits.description),
  inputs: z.array(workflowInputSchema).max(workflowLimits.inputs),
  steps: z
    .array(workflowStepSchema)
    .min(1, 'A workflow needs at least one step')
    .max(workflowLimits.steps, `A workflow has at most ${workflowLimits.steps} steps`),
};

export const createWorkflowSchema = z.object({
  name: fields.name,
  description: fields.description.default(''),
  inputs: fields.inputs.default([]),
  steps: fields.steps,
});
export type CreateWorkflow = z.input<typeof createWorkflowSchema>;

export const updateWorkflowSchema = z
  .object(fields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' });

export const workflowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  inputs: z.array(workflowInputSchema),
  steps: z.array(workflowStepSchema),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Workflow = z.infer<typeof workflowSchema>;
export const workflowListSchema = z.object({ workflows: z.array(workflowSchema) });

export const workflowVersionSchema = z.object({
  version: z.number().int(),
  created_at: z.string(),
  workflow: workflowSchema.pick({ name: true, description: true, inputs: true, steps: true }),
});
export const workflowVersionListSchema = z.object({ versions: z.array(workflowVersionSchema) });

/**
 * A save refused because a reference is unknown: which step, which variable
 * (`workflows:unknown_reference`, with this in `details`).
 */
export const workflowProblemSchema = z.object({
  step_id: z.string().nullable(),
  field: z.string(),
  message: z.string(),
});
export type WorkflowProblem = z.infer<typeof workflowProblemSchema>;

// ---------------------------------------------------------------------------------------------
// Runs

export const workflowRunStatuses = [
  'queued',
  'running',
  'complete',
  'failed',
  'cancelled',
] as const;
export const workflowStepStatuses = [
  'pending',
  'running',
  'done',
  'skipped',
  'failed',
  'cancelled',
] as const;

export const workflowStepRunSchema = z.object({
  step_id: z.string(),
  kind: z.enum(workflowStepKinds),
  name: z.string(),
  status: z.enum(workflowStepStatuses),
  /** Text, or JSON for knowledge search, HTTP tools and extracted JSON. */
  output: z.unknown().nullable(),
  error: z.string().nullable(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().nullable(),
  duration_ms: z.number().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type WorkflowStepRun = z.infer<typeof workflowStepRunSchema>;

export const workflowRunSchema = z.object({
  id: z.string(),
  workflow_id: z.string(),
  workflow_name: z.string(),
  /** The version it ran. */
  version: z.number().int(),
  status: z.enum(workflowRunStatuses),
  /** `manual`, or `schedule` for a scheduled occurrence. */
  trigger: z.enum(['manual', 'schedule']),
  inputs: z.record(z.string(), z.unknown()),
  steps: z.array(workflowStepRunSchema),
  /** The last step's output that ran: what a schedule e-mails. */
  output: z.unknown().nullable(),
  error: z
    .object({ code: z.string(), message: z.string(), step_id: z.string().nullable() })
    .nullable(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  cost_usd: z.number().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type WorkflowRun = z.infer<typeof workflowRunSchema>;
export const workflowRunListSchema = z.object({
  runs: z.array(workflowRunSchema),
  next_cursor: z.string().nullable(),
});

/** `POST /functions/v1/workflow-run`: starts a run as a job; answers 202 with the queued run. */
export const startWorkflowRunSchema = z.object({
  workflow_id: z.uuid('Not a workflow id'),
  inputs: z
    .record(z.string(), z.union([z.string().max(100_000), z.number(), z.boolean()]))
    .default({}),
  /** An earlier version to run; the latest when absent. */
  version: z.number().int().min(1).optional(),
});
export type StartWorkflowRun = z.input<typeof startWorkflowRunSchema>;

/**
 * `POST /functions/v1/workflow-dry-run`: runs a draft (unsaved) with sample inputs, at once, and
 * answers every step's result; nothing is stored but usage.
 */
export const workflowDryRunSchema = z.object({
  workflow: createWorkflowSchema,
  inputs: startWorkflowRunSchema.shape.inputs,
});

/** `GET /workflows/{id}/runs`: newest first, a page at a time. */
export const listWorkflowRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** What a dry run answers: every step's result, as a run would show them. */
export const workflowDryRunResultSchema = workflowRunSchema.pick({
  status: true,
  steps: true,
  output: true,
  error: true,
  input_tokens: true,
  output_tokens: true,
  cost_usd: true,
});
export type WorkflowDryRunResult = z.infer<typeof workflowDryRunResultSchema>;

/** A save refused for its content: the code and message, and which step and field (`details`). */
export const workflowSaveErrorSchema = z.object({
  error: z.string(),
  code: z.string(),
  details: workflowProblemSchema.optional(),
});
