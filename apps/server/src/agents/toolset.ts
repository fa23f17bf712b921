import type { Tool, ToolSet } from 'ai';
import type { AgentTool } from '@chorus/shared/api/agents';
import type { ProviderId } from '@chorus/shared/providers';
import { admit } from '../ai/admission.ts';
import type { AgentToolSetting } from '../db/schema/agents.ts';
import { callShape, grantKey, onceRuleOf, scopeText, type OnceRule } from './approval-scope.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import type { AllowList } from '../net/address-check.ts';
import { calculatorTool } from '../tools/builtin/calculator.ts';
import { currentDatetimeTool } from '../tools/builtin/current-datetime.ts';
import { knowledgeSearchTool } from '../tools/builtin/knowledge-search.ts';
import { toolFailure } from '../tools/builtin/tool-failure.ts';
import { webFetchTool } from '../tools/builtin/web-fetch.ts';
import { HttpToolsRepository } from '../db/repositories/http-tools.ts';
import { httpToolForModel, urlPlaceholders } from '../tools/http-tool.ts';
import { openMcpToolsForModel } from '../tools/mcp/runtime.ts';

/** What a run's tools need: the payer, the conversation (for `once` approvals) and limits. */
export type ToolsetContext = {
  userId: string;
  conversationId: string;
  provider: ProviderId;
  model: string;
  knowledgeBaseIds: readonly string[];
  allow: AllowList;
  signal?: AbortSignal | undefined;
  /**
   * Calls approved once in this conversation (policy `once`), as `grantKey(tool, shape)`. Added
   * to while the run goes on: a call approved now covers later calls of its shape in this run.
   */
  granted: Set<string>;
};

export type AgentToolset = {
  tools: ToolSet;
  /** The key (`builtin:…`, `http:…`, `mcp:…`) of each tool name the model sees. */
  keys: Map<string, string>;
  /** Of each tool asked "once", by the name the model sees: what one approval covers. */
  once: Map<string, OnceRule>;
  /** The same in words, as the person reads it beside Approve. */
  scopes: Map<string, string>;
  /** Records an approval of a `once` tool's call: later calls of its shape run without asking. */
  grant(name: string, input: unknown): { tool: string; shape: string } | null;
  /** Tools the agent lists that could not be offered, and why: told to the model and the user. */
  skipped: string[];
  close(): Promise<void>;
};

/**
 * A tool call counts against the plan's daily quota like a prompt (issue 18 point 7). A call past
 * the quota is not made; the model reads why.
 */
const metered = (deps: Deps, ctx: ToolsetContext, name: string, inner: Tool): Tool => {
  const execute = inner.execute;
  if (!execute) return inner;
  return {
    ...inner,
    execute: async (input: unknown, options: Parameters<NonNullable<Tool['execute']>>[1]) => {
      try {
        await admit(deps.database.db, {
          userId: ctx.userId,
          provider: ctx.provider,
          model: ctx.model,
          prompts: 1,
          rateLimit: null,
        });
      } catch (error) {
        if (error instanceof ApiError) return toolFailure(error.message);
        throw error;
      }
      deps.log.debug({ userId: ctx.userId, tool: name }, 'agent tool call');
      return execute(input, options);
    },
  } as Tool;
};

/**
 * When a call of this tool waits for the user: always, never, or — asked once — unless a call of
 * the same shape was approved in this conversation (approval-scope.ts).
 */
const approvalOf = (
  setting: AgentToolSetting,
  rule: OnceRule,
  granted: ReadonlySet<string>,
): Tool['needsApproval'] => {
  if (setting.approval === 'always') return true;
  if (setting.approval !== 'once') return undefined;
  return (input: unknown) => !granted.has(grantKey(setting.tool, callShape(rule, input)));
};

/**
 * The tools an agent may call in one run, ready for the model-call seam: built-ins, the user's
 * HTTP tools and the enabled, approved tools of their MCP servers. Every user-supplied URL goes
 * through the outbound check (net/); each tool carries its approval rule.
 */
export const buildAgentToolset = async (
  deps: Deps,
  settings: readonly AgentTool[],
  ctx: ToolsetContext,
): Promise<AgentToolset> => {
  const byKey = new Map<string, Tool>();
  const skipped: string[] = [];
  const httpIds: string[] = [];
  const mcpIds: string[] = [];
  const builtins: Record<string, () => Tool> = {
    calculator: () => calculatorTool,
    current_datetime: () => currentDatetimeTool,
    web_fetch: () => webFetchTool({ allow: ctx.allow }),
    knowledge_search: () =>
      knowledgeSearchTool(deps, {
        userId: ctx.userId,
        baseIds: ctx.knowledgeBaseIds,
        signal: ctx.signal,
      }),
  };
  for (const { tool } of settings) {
    const [kind, id = ''] = tool.split(':') as [string, string | undefined];
    const builtin = kind === 'builtin' ? builtins[id] : undefined;
    if (kind === 'http') httpIds.push(id);
    else if (kind === 'mcp') mcpIds.push(id);
    else if (builtin) byKey.set(tool, builtin());
    else skipped.push(`${tool} (unknown tool)`);
  }
  const httpRepo = new HttpToolsRepository(deps.database.db, ctx.userId, deps.box);
  const httpRows = httpIds.length ? await httpRepo.getMany(httpIds) : [];
  const outbound = { allow: ctx.allow, ...(ctx.signal && { signal: ctx.signal }) };
  const mcp = mcpIds.length
    ? await openMcpToolsForModel(deps, ctx.userId, mcpIds, { allow: ctx.allow, signal: ctx.signal })
    : { tools: {}, skipped: [], keys: new Map<string, string>(), close: async () => {} };
  skipped.push(...mcp.skipped);

  const tools: ToolSet = {};
  const keys = new Map<string, string>();
  const once = new Map<string, OnceRule>();
  const setting = new Map(settings.map((s) => [s.tool, s]));
  const urlArguments = new Map(
    httpRows.map((row) => [`http:${row.id}`, urlPlaceholders(row.url_template)]),
  );
  const add = (name: string, key: string, tool: Tool) => {
    const chosen = setting.get(key);
    const rule = onceRuleOf(key, urlArguments.get(key));
    const needsApproval = chosen ? approvalOf(chosen, rule, ctx.granted) : undefined;
    tools[name] = {
      ...metered(deps, ctx, name, tool),
      ...(needsApproval !== undefined && { needsApproval }),
    } as Tool;
    keys.set(name, key);
    if (chosen?.approval === 'once') once.set(name, rule);
  };
  for (const [key, tool] of byKey) add(key.slice('builtin:'.length), key, tool);
  for (const row of httpRows) {
    let secrets: ReturnType<typeof httpRepo.secretHeaders>;
    try {
      secrets = httpRepo.secretHeaders(row);
    } catch {
      // Sealed under another server secret, or damaged: the run goes on without this tool.
      skipped.push(
        `http:${row.id} (${row.name}: its secret headers cannot be read; enter them again under Tools)`,
      );
      continue;
    }
    add(row.name, `http:${row.id}`, httpToolForModel(row, secrets, outbound));
  }
  for (const [name, tool] of Object.entries(mcp.tools)) {
    const key = mcp.keys.get(name);
    if (key) add(name, key, tool);
  }
  const loaded = new Set(httpRows.map((row) => row.id));
  for (const id of httpIds) if (!loaded.has(id)) skipped.push(`http:${id} (deleted)`);
  return {
    tools,
    keys,
    skipped,
    once,
    scopes: new Map([...once].map(([name, rule]) => [name, scopeText(rule)])),
    grant(name, input) {
      const key = keys.get(name);
      const rule = once.get(name);
      if (!key || !rule) return null;
      const shape = callShape(rule, input);
      ctx.granted.add(grantKey(key, shape));
      return { tool: key, shape };
    },
    close: mcp.close,
  };
};
