import { stepCountIs, type ModelMessage, type StopCondition, type ToolSet } from 'ai';
import { agentLimits, agentMention, type AgentTool } from '@chorus/shared/api/agents';
import type { ProviderId } from '@chorus/shared/providers';
import { AgentsRepository, type AgentRow } from '../db/repositories/agents.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { AgentRunsRepository } from '../db/repositories/agent-runs.ts';
import { readOutboundAllowList } from '../net/allow-list-setting.ts';
import { takeRunSlot, type RunSlot } from '../quota/run-slots.ts';
import type { CallUsage } from '../ai/model-call.ts';
import type { ToolCallLog } from './tool-calls.ts';
import { buildAgentToolset, type AgentToolset } from './toolset.ts';

export type { AgentRow };

export const agentNotFound = () => new ApiError(404, 'agents:not_found');

/**
 * The agent a chat turn hands over to (issue 18): the one named by `agent_id`, or the one whose
 * `@handle` starts the message. A handle that names none of the user's agents is plain text.
 */
export const resolveAgent = async (
  deps: Deps,
  userId: string,
  body: { agent_id?: string | undefined; text?: string | undefined },
): Promise<AgentRow | null> => {
  const repo = new AgentsRepository(deps.database.db, userId);
  if (body.agent_id) {
    const agent = await repo.get(body.agent_id);
    if (!agent) throw agentNotFound();
    return agent;
  }
  const mention = body.text ? agentMention(body.text) : null;
  return mention ? repo.getByHandle(mention.handle) : null;
};

/** A run holds its place at most this long: no run streams longer than its time limit. */
const RUN_SLOT_TTL_MS = agentLimits.runTimeoutMs + 60_000;

/**
 * Takes one of the user's places for a run streaming now (at most `agentLimits.concurrentRuns`),
 * in the statement that checks them (quota/run-slots.ts), or refuses with 429. The run gives it
 * back when its stream ends; a run whose instance stopped gives it back when the lease runs out.
 */
export const takeRunCapacity = async (deps: Deps, userId: string): Promise<RunSlot> => {
  const slot = await takeRunSlot(
    deps.database.db,
    {
      userId,
      kind: 'agent_run',
      limit: agentLimits.concurrentRuns,
      instanceId: deps.instance.id,
      ttlMs: RUN_SLOT_TTL_MS,
    },
    deps.log,
  );
  if (!slot) {
    throw new ApiError(
      429,
      'agents:too_many_runs',
      `You have ${agentLimits.concurrentRuns} agent runs going, as many as you may at once. Wait for one to finish, or stop one, then try again.`,
    );
  }
  return slot;
};

const tokensOf = (usage: { inputTokens?: number | undefined; outputTokens?: number | undefined }) =>
  (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);

/** Stops the loop once the run has spent its token budget (steps already made count). */
const withinBudget =
  (budget: number): StopCondition<ToolSet> =>
  ({ steps }) =>
    steps.reduce((n, step) => n + tokensOf(step.usage), 0) >= budget;

export type AgentRunSettings = {
  toolset: AgentToolset;
  stopWhen: StopCondition<ToolSet>[];
  /** The agent's instructions, with a word on tools it could not be given. */
  system: string;
};

/**
 * What one stretch of a run needs: its tools (with approval rules), its step limit and token
 * budget, less what earlier stretches of the same run spent, and its instructions.
 */
export const agentRunSettings = async (
  deps: Deps,
  req: {
    userId: string;
    agent: Pick<AgentRow, 'instructions' | 'max_steps' | 'knowledge_base_ids'> & {
      tools: AgentTool[];
    };
    conversationId: string;
    provider: ProviderId;
    model: string;
    signal?: AbortSignal | undefined;
    spent?: { steps: number; tokens: number };
  },
): Promise<AgentRunSettings> => {
  const [allow, granted] = await Promise.all([
    readOutboundAllowList(deps),
    new AgentRunsRepository(deps.database.db, req.userId).grants(req.conversationId),
  ]);
  const toolset = await buildAgentToolset(deps, req.agent.tools, {
    userId: req.userId,
    conversationId: req.conversationId,
    provider: req.provider,
    model: req.model,
    knowledgeBaseIds: req.agent.knowledge_base_ids,
    allow,
    signal: req.signal,
    granted,
  });
  const spent = req.spent ?? { steps: 0, tokens: 0 };
  const skipped = toolset.skipped.length
    ? `These tools of yours could not be offered in this run: ${toolset.skipped.join('; ')}. If the user needs them, say so.`
    : '';
  return {
    toolset,
    stopWhen: [
      stepCountIs(Math.max(1, req.agent.max_steps - spent.steps)),
      withinBudget(Math.max(1, agentLimits.tokenBudget - spent.tokens)),
    ],
    system: [req.agent.instructions.trim(), skipped].filter(Boolean).join('\n\n'),
  };
};

/** Where a stretch of a run left it: waiting for approval (with what to go on from) or done. */
export const runPatchAfterFinish = (input: {
  waiting: boolean;
  system: string | undefined;
  /** The provider the messages were made with: a paused run goes on with it only. */
  provider: ProviderId;
  context: ModelMessage[];
  responseMessages: ModelMessage[];
  steps: number;
  usage: CallUsage;
  prior: { steps: number; input: number; output: number; elapsedMs: number };
}) => ({
  status: input.waiting ? ('awaiting_approval' as const) : ('complete' as const),
  steps: input.prior.steps + input.steps,
  input_tokens: input.prior.input + input.usage.inputTokens,
  output_tokens: input.prior.output + input.usage.outputTokens,
  elapsed_ms: input.prior.elapsedMs + Math.round(input.usage.latencyMs),
  // Only a paused run needs its messages again.
  state: input.waiting
    ? {
        system: input.system,
        provider: input.provider,
        messages: [...input.context, ...input.responseMessages],
      }
    : { messages: [] },
});

/**
 * Before an agent reply's last write: a call still running when the run stopped ends with it,
 * the list goes with the write, and the sessions with the run's MCP servers close.
 */
export const endRunTools = (
  calls: ToolCallLog,
  toolset: AgentToolset | undefined,
  writer: { setToolCalls(calls: unknown[]): void },
  status: string | undefined,
): void => {
  if (status !== 'complete') calls.settle('The run stopped before this call ended.');
  writer.setToolCalls(calls.list);
  void toolset?.close();
};
