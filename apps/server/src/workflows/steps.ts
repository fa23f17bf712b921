import { stepCountIs, type ToolSet } from 'ai';
import type { AgentTool } from '@chorus/shared/api/agents';
import { workflowLimits, type WorkflowStep } from '@chorus/shared/api/workflows';
import type { ProviderId } from '@chorus/shared/providers';
import { buildAgentToolset } from '../agents/toolset.ts';
import { needsApprovalReason, unattendedTools } from '../agents/unattended.ts';
import { prepareModelCall, type CallUsage } from '../ai/model-call.ts';
import { AgentsRepository } from '../db/repositories/agents.ts';
import { CustomAisRepository } from '../db/repositories/custom-ais.ts';
import { HttpToolsRepository } from '../db/repositories/http-tools.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { searchKnowledge } from '../knowledge/search.ts';
import { extractJson } from '../lib/extract-json.ts';
import { readOutboundAllowList } from '../net/allow-list-setting.ts';
import { isToolFailure } from '../tools/builtin/tool-failure.ts';
import { runHttpTool } from '../tools/http-tool.ts';
import { evaluateCondition } from './condition.ts';
import { renderTemplate, TemplateError, valueAtPath, type TemplateScope } from './template.ts';

/** A step that cannot go on; `reason` is shown on the run page as it is. */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    message: string,
    readonly code: 'workflows:step_failed' | 'workflows:needs_approval' = 'workflows:step_failed',
  ) {
    super(message);
  }
}

/** What a step runs with: the payer, the usage source, the run's stop signal and time left. */
export type StepContext = {
  deps: Deps;
  userId: string;
  /** The run's id, or a made-up one for a dry run (tools key `once` approvals by it). */
  runKey: string;
  source: 'workflow' | 'schedule';
  signal: AbortSignal;
  remainingMs: () => number;
  rateLimit: 'data' | 'none';
};

export type StepResult = {
  output: unknown;
  usage: Pick<CallUsage, 'inputTokens' | 'outputTokens' | 'costUsd'> | null;
  /** A condition that did not hold: every later step is skipped. */
  stop?: boolean;
};

const render = (template: string, scope: TemplateScope) => {
  try {
    return renderTemplate(template, scope);
  } catch (error) {
    if (error instanceof TemplateError) throw new StepFailure(error.message);
    throw error;
  }
};

/** Keeps an output within the contract's size; a JSON one too long is kept as cut text. */
export const boundOutput = (output: unknown): unknown => {
  const max = workflowLimits.outputChars;
  if (typeof output === 'string') return output.length > max ? output.slice(0, max) : output;
  const text = JSON.stringify(output) ?? 'null';
  return text.length > max ? text.slice(0, max) : output;
};

const promptStep = async (
  ctx: StepContext,
  step: Extract<WorkflowStep, { kind: 'prompt' }>,
  scope: TemplateScope,
): Promise<StepResult> => {
  const prompt = render(step.prompt, scope);
  let system = render(step.system, scope);
  let provider = step.provider;
  let model = step.model;
  let temperature = step.temperature ?? undefined;
  let topP: number | undefined;
  let maxOutputTokens: number | undefined;
  let tools: ToolSet | undefined;
  let maxSteps = 1;
  let close = async () => {};
  let approvalWanted: string | null = null;
  const stepStop = new AbortController();
  const db = ctx.deps.database.db;
  if (step.custom_ai_id) {
    const persona = await new CustomAisRepository(db, ctx.userId).get(step.custom_ai_id);
    if (!persona) throw new StepFailure('The custom AI of this step is gone or no longer yours.');
    provider = persona.provider as ProviderId;
    model = persona.model;
    system = [persona.system_prompt.trim(), system].filter(Boolean).join('\n\n');
    temperature = step.temperature ?? persona.temperature ?? undefined;
    topP = persona.top_p ?? undefined;
    maxOutputTokens = persona.max_tokens ?? undefined;
  } else if (step.agent_id) {
    const agent = await new AgentsRepository(db, ctx.userId).get(step.agent_id);
    if (!agent) throw new StepFailure('The agent of this step is gone or no longer yours.');
    provider = agent.provider as ProviderId;
    model = agent.model;
    system = [agent.instructions.trim(), system].filter(Boolean).join('\n\n');
    temperature = step.temperature ?? agent.temperature ?? undefined;
    maxSteps = agent.max_steps;
    const toolset = await buildAgentToolset(ctx.deps, agent.tools as AgentTool[], {
      userId: ctx.userId,
      conversationId: ctx.runKey,
      provider: agent.provider as ProviderId,
      model: agent.model ?? '',
      knowledgeBaseIds: agent.knowledge_base_ids,
      allow: await readOutboundAllowList(ctx.deps),
      signal: ctx.signal,
      granted: new Set(),
    });
    close = toolset.close;
    tools = unattendedTools(toolset.tools, (name) => {
      approvalWanted ??= name;
      stepStop.abort();
    });
  }
  if (!provider) throw new StepFailure('Pick a provider and model for this step.');
  try {
    const call = await prepareModelCall(ctx.deps, {
      userId: ctx.userId,
      source: ctx.source,
      provider,
      model,
      rateLimit: ctx.rateLimit,
    });
    const { text, usage } = await call.generate({
      messages: [{ role: 'user', content: prompt }],
      system: system || undefined,
      temperature,
      topP,
      maxOutputTokens,
      ...(tools && { tools, stopWhen: stepCountIs(Math.max(1, maxSteps)) }),
      signal: AbortSignal.any([ctx.signal, stepStop.signal]),
      timeoutMs: Math.max(1_000, ctx.remainingMs()),
    });
    return { output: text, usage };
  } catch (error) {
    if (approvalWanted) {
      throw new StepFailure(`${approvalWanted} ${needsApprovalReason}`, 'workflows:needs_approval');
    }
    if (error instanceof ApiError) throw new StepFailure(error.message);
    throw error;
  } finally {
    await close();
  }
};

const knowledgeStep = async (
  ctx: StepContext,
  step: Extract<WorkflowStep, { kind: 'knowledge_search' }>,
  scope: TemplateScope,
): Promise<StepResult> => {
  try {
    const found = await searchKnowledge(ctx.deps, {
      userId: ctx.userId,
      baseIds: step.knowledge_base_ids.map((id) => id.toLowerCase()),
      query: render(step.query, scope),
      topK: step.top_k,
      signal: ctx.signal,
      missing: 'refuse',
    });
    return {
      output: found.results.map((hit) => ({
        document_name: hit.document_name,
        text: hit.text,
        score: hit.score,
      })),
      usage: null,
    };
  } catch (error) {
    if (error instanceof ApiError) throw new StepFailure(error.message);
    throw error;
  }
};

const httpStep = async (
  ctx: StepContext,
  step: Extract<WorkflowStep, { kind: 'http_tool' }>,
  scope: TemplateScope,
): Promise<StepResult> => {
  const repo = new HttpToolsRepository(ctx.deps.database.db, ctx.userId, ctx.deps.box);
  const tool = await repo.get(step.tool_id);
  if (!tool) throw new StepFailure('The HTTP tool of this step is gone or no longer yours.');
  const input = Object.fromEntries(
    Object.entries(step.input).map(([name, text]) => [name, render(text, scope)]),
  );
  const result = await runHttpTool(tool, input, repo.secretHeaders(tool), {
    allow: await readOutboundAllowList(ctx.deps),
    signal: ctx.signal,
  });
  if (isToolFailure(result)) throw new StepFailure(result.error);
  return { output: { status: result.status, body: result.body }, usage: null };
};

const transformStep = (
  step: Extract<WorkflowStep, { kind: 'transform' }>,
  scope: TemplateScope,
): StepResult => {
  const text = render(step.template, scope);
  if (step.mode === 'template') return { output: text, usage: null };
  const json = extractJson(text);
  if (!json.found) throw new StepFailure('No JSON object or array was found in the text.');
  const path = step.path.trim() ? step.path.trim().split('.') : [];
  const value = valueAtPath(json.value, path);
  if (value === undefined) throw new StepFailure(`The JSON has no field ${step.path.trim()}.`);
  return { output: value, usage: null };
};

/** Runs one step; a failure a person can act on is a StepFailure. */
export const runStep = async (
  ctx: StepContext,
  step: WorkflowStep,
  scope: TemplateScope,
): Promise<StepResult> => {
  switch (step.kind) {
    case 'prompt':
      return promptStep(ctx, step, scope);
    case 'knowledge_search':
      return knowledgeStep(ctx, step, scope);
    case 'http_tool':
      return httpStep(ctx, step, scope);
    case 'transform':
      return transformStep(step, scope);
    case 'condition': {
      const result = evaluateCondition(step.expression, scope);
      if (!result.ok) throw new StepFailure(result.reason);
      return { output: result.value, usage: null, stop: !result.value };
    }
  }
};
