import { z } from 'zod';
import { providerIdSchema } from './keys.ts';
import { toolKeySchema } from './tools.ts';

/**
 * Agents (issue 18): a custom AI with tools. Runs use the model-call seam's multi-step tool loop
 * on the caller's keys and quota, under a step limit, a time limit and a token budget.
 */
export const agentLimits = {
  name: 80,
  description: 500,
  avatar: 8,
  instructions: 20_000,
  tools: 30,
  knowledgeBases: 10,
  /** Agents one user may keep. */
  perUser: 200,
  steps: { default: 10, max: 25 },
  /** A run's whole time, pauses for approval excluded. */
  runTimeoutMs: 5 * 60_000,
  /** Input and output tokens one run may spend over all its steps. */
  tokenBudget: 200_000,
  /** Runs of one user streaming at once. */
  concurrentRuns: 3,
} as const;

/**
 * When a tool call waits for the user: `always` every call; `once` the first call of the tool in
 * a conversation (approving it lets the rest run); `never` runs at once.
 */
export const approvalPolicies = ['always', 'once', 'never'] as const;
export type ApprovalPolicy = (typeof approvalPolicies)[number];

export const agentToolSchema = z.object({
  tool: toolKeySchema,
  approval: z.enum(approvalPolicies, { error: 'Approval is always, once or never' }),
});
export type AgentTool = z.infer<typeof agentToolSchema>;

/** What `@handle` in a chat names: the agent's name in lower case, words joined by dashes. */
export const agentHandle = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);

/** `@handle` at the start of a message: the handle and the rest of the text. */
export const agentMention = (text: string): { handle: string; rest: string } | null => {
  const match = /^@([a-z0-9][a-z0-9-]{0,39})(?:\s+|$)/i.exec(text.trimStart());
  if (!match) return null;
  return {
    handle: match[1]!.toLowerCase(),
    rest: text.trimStart().slice(match[0].length),
  };
};

export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `@handle` hands a chat's turn to the agent. */
  handle: z.string(),
  description: z.string(),
  avatar: z.string(),
  instructions: z.string(),
  provider: providerIdSchema,
  model: z.string().nullable(),
  temperature: z.number().nullable(),
  max_steps: z.number().int(),
  tools: z.array(agentToolSchema),
  knowledge_base_ids: z.array(z.string()),
  /** Goes up with every change; earlier ones can be restored. */
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentListSchema = z.object({ agents: z.array(agentSchema) });

const text = (label: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${label} is missing` : `${label} must be text`,
    })
    .trim()
    .max(max, `${label} is at most ${max.toLocaleString('en')} characters`);

const fields = {
  name: text('The name', agentLimits.name)
    .min(1, 'Give the agent a name')
    .refine((name) => agentHandle(name) !== '', {
      message: 'The name needs at least one letter or digit',
    }),
  description: text('The description', agentLimits.description),
  avatar: text('The avatar', agentLimits.avatar),
  instructions: text('The instructions', agentLimits.instructions),
  provider: providerIdSchema,
  model: text('The model', 200).min(1, 'Pick a model').nullable(),
  temperature: z
    .number({ error: 'The temperature must be a number' })
    .min(0, 'The temperature is between 0 and 2')
    .max(2, 'The temperature is between 0 and 2')
    .nullable(),
  max_steps: z
    .number({ error: 'The step limit must be a number' })
    .int('The step limit is a whole number')
    .min(1, 'An agent takes at least 1 step')
    .max(agentLimits.steps.max, `An agent takes at most ${agentLimits.steps.max} steps`),
  tools: z
    .array(agentToolSchema, { error: 'tools must be a list' })
    .max(agentLimits.tools, `Give an agent at most ${agentLimits.tools} tools`)
    .refine((tools) => new Set(tools.map((t) => t.tool)).size === tools.length, {
      message: 'A tool is listed twice',
    }),
  knowledge_base_ids: z
    .array(z.uuid('Not a knowledge base id'), { error: 'knowledge_base_ids must be a list of ids' })
    .max(agentLimits.knowledgeBases, `Attach at most ${agentLimits.knowledgeBases} knowledge bases`)
    .transform((ids) => [...new Set(ids)]),
};

export const createAgentSchema = z.object({
  name: fields.name,
  description: fields.description.default(''),
  avatar: fields.avatar.default(''),
  instructions: fields.instructions.default(''),
  provider: fields.provider,
  model: fields.model.default(null),
  temperature: fields.temperature.default(null),
  max_steps: fields.max_steps.default(agentLimits.steps.default),
  tools: fields.tools.default([]),
  knowledge_base_ids: fields.knowledge_base_ids.default([]),
});
export type CreateAgent = z.input<typeof createAgentSchema>;

export const updateAgentSchema = z
  .object(fields)
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Send at least one field to change' });
export type UpdateAgent = z.input<typeof updateAgentSchema>;

/** One saved state of an agent: what it was after a change. */
export const agentVersionSchema = z.object({
  version: z.number().int(),
  created_at: z.string(),
  agent: agentSchema.omit({ id: true, version: true, created_at: true, updated_at: true }),
});
export type AgentVersion = z.infer<typeof agentVersionSchema>;

export const agentVersionListSchema = z.object({ versions: z.array(agentVersionSchema) });

// ---------------------------------------------------------------------------------------------
// Runs

export {
  agentRunStatuses,
  messageAgentRunSchema,
  storedToolCallSchema,
  toolCallStates,
  type MessageAgentRun,
  type StoredToolCall,
} from './agent-runs.ts';

/** `POST /functions/v1/agent-runs/{id}/approvals`: the user's answer to each waiting call. */
export const agentApprovalRequestSchema = z.object({
  decisions: z
    .array(
      z.object({
        approval_id: z.string().min(1).max(200),
        approved: z.boolean(),
        /** Told to the model with a refusal. */
        reason: z.string().trim().max(500).optional(),
      }),
    )
    .min(1, 'Answer at least one waiting tool call')
    .max(50),
});
export type AgentApprovalRequest = z.infer<typeof agentApprovalRequestSchema>;
