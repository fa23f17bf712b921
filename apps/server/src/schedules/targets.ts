import { and, eq, inArray } from 'drizzle-orm';
import type { ScenarioParameters } from '@chorus/shared/api/scenarios';
import type { ScheduleTarget } from '@chorus/shared/api/schedules';
import { messageFor } from '@chorus/shared/error-catalogue';
import { fillTemplate, missingVariables } from '@chorus/shared/template';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { agentRunSettings } from '../agents/agent-turn.ts';
import { prepareModelCall, type CallUsage } from '../ai/model-call.ts';
import type { Db } from '../db/client.ts';
import { AgentsRepository } from '../db/repositories/agents.ts';
import { PromptsRepository } from '../db/repositories/prompts.ts';
import { scenarioPrompt, ScenariosRepository } from '../db/repositories/scenarios.ts';
import { agents, prompts, scenarios, workflows } from '../db/schema/index.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { createWorkflowRun, executeWorkflowRun } from '../workflows/engine.ts';

/** How one occurrence's target ended. */
export type TargetOutcome = {
  status: 'complete' | 'failed' | 'stopped';
  text: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  error: { code: string; message: string } | null;
  workflowRunId: string | null;
};

/** Scheduled calls run unattended, far from a person waiting: a longer whole-call limit. */
const CALL_TIMEOUT_MS = 5 * 60_000;

const addCost = (a: number | null, b: number | null) =>
  a === null && b === null ? null : (a ?? 0) + (b ?? 0);

const fromUsage = (text: string, usage: CallUsage): TargetOutcome => ({
  status: 'complete',
  text,
  inputTokens: usage.inputTokens,
  outputTokens: usage.outputTokens,
  costUsd: usage.costUsd,
  error: null,
  workflowRunId: null,
});

const missingVariable = (names: string[]) =>
  new ApiError(400, 'prompts:missing_variable', messageFor('prompts:missing_variable', { names }));

/** One model call on the owner's keys, plan and quota, through the seam. */
const callOnce = async (
  deps: Deps,
  req: {
    userId: string;
    provider: ProviderId;
    model: string | null;
    system?: string | undefined;
    prompt: string;
    parameters?: ScenarioParameters | undefined;
    signal?: AbortSignal | undefined;
  },
) => {
  const call = await prepareModelCall(deps, {
    userId: req.userId,
    source: 'schedule',
    provider: req.provider,
    model: req.model,
    rateLimit: 'none',
  });
  const answer = await call.generate({
    messages: [{ role: 'user', content: req.prompt }],
    system: req.system?.trim() || undefined,
    temperature: req.parameters?.temperature ?? undefined,
    maxOutputTokens: req.parameters?.max_tokens ?? undefined,
    timeoutMs: CALL_TIMEOUT_MS,
    signal: req.signal,
  });
  return { ...answer, provider: call.provider, model: call.model };
};

const runPrompt = async (
  deps: Deps,
  userId: string,
  target: Extract<ScheduleTarget, { kind: 'prompt' }>,
  signal?: AbortSignal,
): Promise<TargetOutcome> => {
  const prompt = await new PromptsRepository(deps.database.db, userId).get(target.prompt_id);
  if (!prompt) throw new ApiError(404, 'prompts:not_found');
  const missing = missingVariables([prompt.content], target.variables);
  if (missing.length > 0) throw missingVariable(missing);
  const { text, usage } = await callOnce(deps, {
    userId,
    provider: target.provider,
    model: target.model,
    prompt: fillTemplate(prompt.content, target.variables),
    signal,
  });
  return fromUsage(text, usage);
};

/**
 * Every model of a saved scenario, one after the other (a schedule has no one watching columns
 * fill). The mail holds each model's answer under its name; the run fails only when none answered.
 */
const runScenario = async (
  deps: Deps,
  userId: string,
  target: Extract<ScheduleTarget, { kind: 'scenario' }>,
  signal?: AbortSignal,
): Promise<TargetOutcome> => {
  const scenario = await new ScenariosRepository(deps.database.db, userId).get(target.scenario_id);
  if (!scenario) throw new ApiError(404, 'scenarios:not_found');
  const targets = scenario.targets as { provider: ProviderId; model: string }[];
  if (targets.length === 0) throw new ApiError(400, 'scenarios:no_targets');
  const template = scenarioPrompt(scenario);
  const missing = missingVariables([scenario.system_prompt, template], scenario.variables);
  if (missing.length > 0) throw missingVariable(missing);
  const prompt = fillTemplate(template, scenario.variables);
  const system = fillTemplate(scenario.system_prompt, scenario.variables);

  const outcome: TargetOutcome = {
    status: 'failed',
    text: '',
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    error: null,
    workflowRunId: null,
  };
  const sections: string[] = [];
  for (const column of targets) {
    const name = `${providers[column.provider]?.name ?? column.provider} · ${column.model.trim() || 'default model'}`;
    try {
      const answer = await callOnce(deps, {
        userId,
        provider: column.provider,
        model: column.model.trim() || null,
        system,
        prompt,
        parameters: scenario.parameters,
        signal,
      });
      outcome.status = 'complete';
      outcome.inputTokens += answer.usage.inputTokens;
      outcome.outputTokens += answer.usage.outputTokens;
      outcome.costUsd = addCost(outcome.costUsd, answer.usage.costUsd);
      sections.push(targets.length === 1 ? answer.text : `${name}\n\n${answer.text}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcome.error ??= { code: error.code, message: error.message };
      sections.push(`${name}\n\n${error.message}`);
    }
  }
  outcome.text = sections.join('\n\n');
  if (outcome.status === 'complete') outcome.error = null;
  return outcome;
};

/**
 * An agent task, unattended: its tools with their approval rules, the tool loop through the seam.
 * Nothing approves a tool here; a call that needs approval ends the run as `stopped`.
 */
const runAgent = async (
  deps: Deps,
  userId: string,
  runId: string,
  target: Extract<ScheduleTarget, { kind: 'agent' }>,
  signal?: AbortSignal,
): Promise<TargetOutcome> => {
  const agent = await new AgentsRepository(deps.database.db, userId).get(target.agent_id);
  if (!agent) throw new ApiError(404, 'agents:not_found');
  const call = await prepareModelCall(deps, {
    userId,
    source: 'schedule',
    provider: agent.provider as ProviderId,
    model: agent.model,
    rateLimit: 'none',
  });
  // No conversation: approvals granted "once" in a chat do not carry over to a schedule.
  const settings = await agentRunSettings(deps, {
    userId,
    agent,
    conversationId: runId,
    provider: call.provider,
    model: call.model,
    signal,
  });
  try {
    const answer = await call.generate({
      system: settings.system || undefined,
      messages: [{ role: 'user', content: target.task }],
      tools: settings.toolset.tools,
      stopWhen: settings.stopWhen,
      temperature: agent.temperature ?? undefined,
      timeoutMs: CALL_TIMEOUT_MS,
      signal,
    });
    const outcome = fromUsage(answer.text, answer.usage);
    if (!answer.approvalRequested) return outcome;
    return {
      ...outcome,
      status: 'stopped',
      error: { code: 'schedules:needs_approval', message: messageFor('schedules:needs_approval') },
    };
  } finally {
    await settings.toolset.close();
  }
};

const outputText = (output: unknown): string =>
  output == null ? '' : typeof output === 'string' ? output : JSON.stringify(output, null, 2);

const runWorkflow = async (
  deps: Deps,
  userId: string,
  target: Extract<ScheduleTarget, { kind: 'workflow' }>,
): Promise<TargetOutcome> => {
  const created = await createWorkflowRun(deps, {
    userId,
    workflowId: target.workflow_id,
    inputs: target.inputs,
    version: target.version ?? undefined,
    trigger: 'schedule',
  });
  const run = await executeWorkflowRun(deps, created.id, userId);
  const stopped = run.error?.code === 'workflows:needs_approval';
  return {
    status: run.status === 'complete' ? 'complete' : stopped ? 'stopped' : 'failed',
    text: outputText(run.output),
    inputTokens: run.input_tokens,
    outputTokens: run.output_tokens,
    costUsd: run.cost_usd,
    error:
      run.status === 'complete'
        ? null
        : run.error
          ? { code: run.error.code, message: run.error.message }
          : { code: 'workflows:step_failed', message: messageFor('workflows:step_failed') },
    workflowRunId: run.id,
  };
};

/** Runs a schedule's target once, on its owner's keys and quota. A typed refusal is an outcome. */
export const runTarget = async (
  deps: Deps,
  req: { userId: string; runId: string; target: ScheduleTarget; signal?: AbortSignal },
): Promise<TargetOutcome> => {
  try {
    switch (req.target.kind) {
      case 'prompt':
        return await runPrompt(deps, req.userId, req.target, req.signal);
      case 'scenario':
        return await runScenario(deps, req.userId, req.target, req.signal);
      case 'agent':
        return await runAgent(deps, req.userId, req.runId, req.target, req.signal);
      case 'workflow':
        return await runWorkflow(deps, req.userId, req.target);
    }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      status: 'failed',
      text: '',
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
      error: { code: error.code, message: error.message },
      workflowRunId: null,
    };
  }
};

const targetIdOf = (target: ScheduleTarget): string => {
  switch (target.kind) {
    case 'prompt':
      return target.prompt_id;
    case 'scenario':
      return target.scenario_id;
    case 'agent':
      return target.agent_id;
    case 'workflow':
      return target.workflow_id;
  }
};

const targetKey = (target: ScheduleTarget): string =>
  `${target.kind}:${targetIdOf(target).toLowerCase()}`;

/** Each target kind's table, as `{ id, name }` of the user's rows among `ids`. */
const namesOf = (db: Db, userId: string, kind: ScheduleTarget['kind'], ids: string[]) => {
  switch (kind) {
    case 'prompt':
      return db
        .select({ id: prompts.id, name: prompts.title })
        .from(prompts)
        .where(and(eq(prompts.user_id, userId), inArray(prompts.id, ids)));
    case 'scenario':
      return db
        .select({ id: scenarios.id, name: scenarios.title })
        .from(scenarios)
        .where(and(eq(scenarios.user_id, userId), inArray(scenarios.id, ids)));
    case 'agent':
      return db
        .select({ id: agents.id, name: agents.name })
        .from(agents)
        .where(and(eq(agents.user_id, userId), inArray(agents.id, ids)));
    case 'workflow':
      return db
        .select({ id: workflows.id, name: workflows.name })
        .from(workflows)
        .where(and(eq(workflows.user_id, userId), inArray(workflows.id, ids)));
  }
};

/**
 * What each target is called now, one query per kind whatever the number of schedules; a target
 * gone or not the user's is null.
 */
export const findTargetNames = async (
  deps: Deps,
  userId: string,
  targets: readonly ScheduleTarget[],
): Promise<(string | null)[]> => {
  const idsByKind = new Map<ScheduleTarget['kind'], Set<string>>();
  for (const target of targets) {
    const ids = idsByKind.get(target.kind) ?? new Set<string>();
    ids.add(targetIdOf(target).toLowerCase());
    idsByKind.set(target.kind, ids);
  }
  const found = await Promise.all(
    [...idsByKind].map(async ([kind, ids]) =>
      (await namesOf(deps.database.db, userId, kind, [...ids])).map(
        (row) => [`${kind}:${row.id.toLowerCase()}`, row.name] as const,
      ),
    ),
  );
  const names = new Map<string, string>(found.flat());
  return targets.map((target) => names.get(targetKey(target)) ?? null);
};

/** What the target is called now; null when it is gone or not the user's. */
export const findTargetName = async (
  deps: Deps,
  userId: string,
  target: ScheduleTarget,
): Promise<string | null> => (await findTargetNames(deps, userId, [target]))[0] ?? null;

/** The 404 of a target that is not the user's, with its kind's own code. */
export const targetNotFound = (target: ScheduleTarget): ApiError => {
  switch (target.kind) {
    case 'prompt':
      return new ApiError(404, 'prompts:not_found');
    case 'scenario':
      return new ApiError(404, 'scenarios:not_found');
    case 'agent':
      return new ApiError(404, 'agents:not_found');
    case 'workflow':
      return new ApiError(404, 'workflows:not_found');
  }
};
