import { z } from 'zod';

// Apart from agents.ts: a stored message carries these, and the chat's first paint reads the
// message contract without the agent and tool schemas.

export const agentRunStatuses = [
  'running',
  'awaiting_approval',
  'complete',
  'failed',
  'stopped',
] as const;

/** A tool call of a run, as stored and as the chat shows it. */
export const toolCallStates = ['running', 'awaiting-approval', 'done', 'error', 'denied'] as const;

export const storedToolCallSchema = z.object({
  /** The model's id for the call. */
  id: z.string(),
  /** Set while the call waits for the user: what the approval answers. */
  approval_id: z.string().nullable(),
  name: z.string(),
  input: z.unknown(),
  state: z.enum(toolCallStates),
  output: z.unknown().optional(),
  error: z.string().nullable(),
  duration_ms: z.number().nullable(),
  /**
   * Set while a call of a tool asked "once per conversation" waits: what approving it also
   * covers (later calls of the same shape), in words.
   */
  approval_scope: z.string().nullable().optional(),
});
export type StoredToolCall = z.infer<typeof storedToolCallSchema>;

/** The agent that answered a message, and where its run stands. */
export const messageAgentRunSchema = z.object({
  id: z.string(),
  agent_id: z.string().nullable(),
  agent_name: z.string(),
  status: z.enum(agentRunStatuses),
});
export type MessageAgentRun = z.infer<typeof messageAgentRunSchema>;
