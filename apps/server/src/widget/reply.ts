import { stepCountIs, type ModelMessage, type StopCondition, type ToolSet } from 'ai';
import { agentLimits } from '@chorus/shared/api/agents';
import type { Source } from '@chorus/shared/api/conversations';
import {
  toolNeedsArgumentRule,
  widgetLimits,
  widgetUnavailableMessage,
  type WidgetStreamEvent,
} from '@chorus/shared/api/widgets';
import type { ProviderId } from '@chorus/shared/providers';
import { buildAgentToolset, type AgentToolset } from '../agents/toolset.ts';
import {
  prepareModelCall,
  type CallSettings,
  type CallUsage,
  type ModelCall,
} from '../ai/model-call.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { knowledgeForTurn } from '../knowledge/chat-context.ts';
import { SAVE_WAIT_MS, settledWithin } from '../lifecycle/pending-writes.ts';
import { readOutboundAllowList } from '../net/allow-list-setting.ts';
import { replyTokenLimit, type BudgetHold } from './budget.ts';
import type { WidgetTarget } from './session.ts';
import { restrictForVisitors } from './tool-arguments.ts';
import {
  finishTurn,
  lastMessages,
  startTurn,
  type VisitorRow,
  type WidgetMessageRow,
  type WidgetRow,
} from './store.ts';

/** What a visitor reads when the model call fails: nothing of the owner's key or the provider's words. */
export const replyFailedMessage =
  'The assistant could not answer just now. Please try again in a moment.';

/** What a reply cut short by the visitor (or a stopping server) keeps when it had no text yet. */
const replyStoppedMessage = 'The reply was stopped before it finished.';

type WidgetSource = Extract<WidgetStreamEvent, { type: 'sources' }>['sources'][number];

/**
 * A short quote of a passage: on one line, at most `max` characters, cut at a word where it can
 * be, with an ellipsis when cut.
 */
export const quoteOf = (text: string, max: number): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
};

/**
 * A knowledge passage as the widget cites it: its document, its place, and a short quote. The
 * owner's documents are theirs: a visitor never gets a whole passage.
 */
export const toWidgetSource = (s: Source): WidgetSource => ({
  document: s.document_name ?? s.title ?? '',
  position:
    s.page !== null && s.page !== undefined
      ? `page ${s.page}`
      : s.heading_path && s.heading_path.length > 0
        ? s.heading_path.join(' › ')
        : null,
  text: quoteOf(s.snippet ?? '', widgetLimits.sourceQuoteChars),
});

/**
 * What a visitor may see of a reply's sources: none when the owner turned sources off, else each
 * with its quote held to the limit (replies stored before the limit kept longer ones).
 */
export const visitorSources = (
  widget: Pick<WidgetRow, 'show_sources'>,
  sources: readonly WidgetSource[],
): WidgetSource[] =>
  widget.show_sources
    ? sources.map((source) => ({
        ...source,
        text: quoteOf(source.text, widgetLimits.sourceQuoteChars),
      }))
    : [];

/** The conversation so far as the model reads it: the last `historyTurns` turns that finished. */
const historyOf = (rows: WidgetMessageRow[]): ModelMessage[] =>
  rows
    .filter((m) => m.status === 'done' && m.content.trim() !== '')
    .map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant' as const, content: m.content }
        : { role: 'user' as const, content: m.content },
    );

const tokensOf = (usage: { inputTokens?: number | undefined; outputTokens?: number | undefined }) =>
  (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);

/**
 * The agent's own run limits: its step count, and the reply's hold on the widget's budget (at
 * most the run token budget), so a reply of many steps stops once it has spent what it held.
 */
const agentStops = (maxSteps: number, tokens: number): StopCondition<ToolSet>[] => [
  stepCountIs(Math.max(1, maxSteps)),
  ({ steps }) =>
    steps.reduce((n, step) => n + tokensOf(step.usage), 0) >=
    Math.min(tokens, agentLimits.tokenBudget),
];

/**
 * The agent's tools a visitor's reply may use: those the owner allowed for the widget, and of
 * them only the ones that never wait for an approval, which no visitor can give. A tool that
 * calls out with the owner's credentials (HTTP, MCP) is given only with the owner's rule of which
 * arguments visitors may set, and restricted to it (tool-arguments.ts).
 */
const visitorToolset = async (
  deps: Deps,
  widget: WidgetRow,
  agent: Extract<WidgetTarget, { kind: 'agent' }>['agent'],
  provider: ProviderId,
  model: string,
  signal: AbortSignal,
): Promise<AgentToolset | null> => {
  const allowed = new Set(widget.allowed_tools);
  const settings = agent.tools.filter(
    (s) =>
      s.approval === 'never' &&
      (allowed.has(s.tool) ||
        (s.tool.startsWith('builtin:') && allowed.has(s.tool.slice('builtin:'.length)))),
  );
  if (settings.length === 0) return null;
  const toolset = await buildAgentToolset(deps, settings, {
    userId: widget.user_id,
    conversationId: '',
    provider,
    model,
    knowledgeBaseIds: agent.knowledge_base_ids,
    allow: await readOutboundAllowList(deps),
    signal,
    granted: new Set(),
  });
  for (const [name, tool] of Object.entries(toolset.tools)) {
    const key = toolset.keys.get(name) ?? '';
    const rule =
      toolNeedsArgumentRule(key) && Object.hasOwn(widget.tool_arguments, key)
        ? widget.tool_arguments[key]
        : undefined;
    if (
      (tool as { needsApproval?: unknown }).needsApproval ||
      (toolNeedsArgumentRule(key) && !rule)
    ) {
      delete toolset.tools[name];
      toolset.keys.delete(name);
    } else if (rule) {
      toolset.tools[name] = restrictForVisitors(tool, rule);
    }
  }
  return toolset;
};

type PreparedReply = {
  call: ModelCall;
  settings: Omit<CallSettings, 'messages' | 'signal'>;
  history: ModelMessage[];
  sources: WidgetSource[];
  toolset: AgentToolset | null;
};

/**
 * Everything the reply needs before anything is stored: the call admitted on the owner's keys,
 * plan and quota (refused: the visitor reads 'unavailable'), the history, the knowledge and the
 * tools. A failure after admission gives the prompt back.
 */
const prepareReply = async (
  deps: Deps,
  req: {
    widget: WidgetRow;
    target: WidgetTarget;
    conversationId: string | null;
    message: string;
    hold: BudgetHold;
    signal: AbortSignal;
  },
): Promise<PreparedReply> => {
  const { widget, target } = req;
  const owner = widget.user_id;
  const provider = (
    target.kind === 'agent' ? target.agent.provider : target.customAi.provider
  ) as ProviderId;
  let call: ModelCall;
  try {
    call = await prepareModelCall(deps, {
      userId: owner,
      source: 'widget',
      provider,
      model: target.kind === 'agent' ? target.agent.model : target.customAi.model,
      rateLimit: 'none',
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // The owner's key, plan or quota: theirs to fix, never the visitor's to read about.
    deps.log.info({ widgetId: widget.id, code: error.code }, 'a widget reply was refused');
    throw new ApiError(403, 'widgets:unavailable', widgetUnavailableMessage);
  }
  try {
    const earlier = req.conversationId
      ? historyOf(
          await lastMessages(deps.database.db, req.conversationId, widgetLimits.historyTurns * 2),
        )
      : [];
    const history: ModelMessage[] = [...earlier, { role: 'user', content: req.message }];
    const baseIds =
      target.kind === 'agent'
        ? target.agent.knowledge_base_ids
        : target.customAi.knowledge_base_ids;
    // Knowledge that cannot be searched leaves the reply without it, not the visitor without one.
    const knowledge =
      baseIds.length > 0
        ? await knowledgeForTurn(deps, {
            userId: owner,
            baseIds,
            context: history.map((m) => ({
              role: m.role,
              content: typeof m.content === 'string' ? m.content : '',
            })),
            signal: req.signal,
          }).catch((error: unknown) => {
            if (!(error instanceof ApiError)) throw error;
            deps.log.warn({ widgetId: widget.id, code: error.code }, 'widget knowledge skipped');
            return null;
          })
        : null;
    const toolset =
      target.kind === 'agent'
        ? await visitorToolset(deps, widget, target.agent, provider, call.model, req.signal)
        : null;
    const instructions =
      target.kind === 'agent' ? target.agent.instructions : target.customAi.system_prompt;
    const system =
      [instructions.trim(), knowledge?.instructions ?? ''].filter(Boolean).join('\n\n') ||
      undefined;
    const settings: PreparedReply['settings'] = {
      system,
      maxOutputTokens: replyTokenLimit(widget, target),
      ...(target.kind === 'agent'
        ? {
            temperature: target.agent.temperature ?? undefined,
            stopWhen: agentStops(target.agent.max_steps, req.hold.tokens),
            timeoutMs: agentLimits.runTimeoutMs,
            ...(toolset && Object.keys(toolset.tools).length > 0 && { tools: toolset.tools }),
          }
        : {
            temperature: target.customAi.temperature ?? undefined,
            topP: target.customAi.top_p ?? undefined,
          }),
    };
    return {
      call,
      settings,
      history,
      sources: (knowledge?.sources ?? []).map(toWidgetSource),
      toolset,
    };
  } catch (error) {
    await call.refund();
    throw error;
  }
};

const sse = (event: WidgetStreamEvent) => `data: ${JSON.stringify(event)}\n\n`;

type Ending =
  | { status: 'done'; usage: CallUsage }
  | { status: 'failed'; usage: CallUsage; code: string }
  | { status: 'stopped'; usage: CallUsage };

const noUsage = { inputTokens: 0, outputTokens: 0 } as CallUsage;

/**
 * A visitor's message and its streamed reply (POST chat), after every check has passed and the
 * reply's hold on the budget is taken: the turn is stored, the reply streams as server-sent
 * events and is stored as it ends, with its tokens on the conversation and on the widget's day in
 * place of its hold. Until the stream starts, a failure throws and the caller releases the hold.
 */
export const streamReply = async (
  deps: Deps,
  req: {
    widget: WidgetRow;
    visitor: VisitorRow;
    target: WidgetTarget;
    conversationId: string | null;
    message: string;
    hold: BudgetHold;
    signal: AbortSignal;
  },
): Promise<Response> => {
  const { widget } = req;
  const stop = new AbortController();
  const signal = AbortSignal.any([req.signal, stop.signal]);
  const prepared = await prepareReply(deps, { ...req, signal });
  const { call, toolset } = prepared;
  let turn: Awaited<ReturnType<typeof startTurn>>;
  try {
    turn = await startTurn(deps.database.db, {
      widgetId: widget.id,
      visitorId: req.visitor.id,
      conversationId: req.conversationId,
      message: req.message,
      instanceId: deps.instance.id,
    });
  } catch (error) {
    await call.refund();
    void toolset?.close();
    throw error;
  }
  if (!turn) {
    await call.refund();
    void toolset?.close();
    throw new ApiError(404, 'widgets:conversation_not_found');
  }
  const { conversationId, replyId } = turn;
  const log = deps.log.child({ widgetId: widget.id, conversationId });

  let settle!: (ending: Ending) => void;
  const ended = new Promise<Ending>((resolve) => (settle = resolve));
  const streamed = call.stream(
    { ...prepared.settings, messages: prepared.history, signal },
    {
      onFinish: ({ usage }) => settle({ status: 'done', usage }),
      onAbort: ({ usage }) => settle({ status: 'stopped', usage }),
      onError: ({ code, usage }) => settle({ status: 'failed', usage, code }),
    },
  );
  const live = deps.streams.track({ interrupt: () => stop.abort() });
  const parts = streamed.result.fullStream[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let text = '';
  let closed = false;

  /** The reply's last write and last event, however it ended. */
  const finish = async (): Promise<WidgetStreamEvent> => {
    // Every way a call ends reports it; this only guards against waiting for ever.
    const ending =
      (await settledWithin(ended, SAVE_WAIT_MS * 5)) ??
      ({ status: 'failed', usage: noUsage, code: 'provider:failed' } as const);
    void toolset?.close();
    const content =
      ending.status === 'done'
        ? text
        : ending.status === 'stopped'
          ? text || replyStoppedMessage
          : [text, replyFailedMessage].filter(Boolean).join('\n\n');
    const saved = deps.saves.run('widget reply', () =>
      finishTurn(deps.database.db, {
        widgetId: widget.id,
        conversationId,
        replyId,
        content,
        status: ending.status === 'done' ? 'done' : 'failed',
        sources: prepared.sources,
        inputTokens: ending.usage.inputTokens,
        outputTokens: ending.usage.outputTokens,
        hold: req.hold,
      }),
    );
    await settledWithin(saved, SAVE_WAIT_MS);
    live.done();
    if (ending.status === 'done') return { type: 'done' };
    if (ending.status === 'stopped') {
      return { type: 'error', code: 'widgets:unavailable', message: replyStoppedMessage };
    }
    log.info({ code: ending.code }, 'a widget reply failed');
    return { type: 'error', code: ending.code, message: replyFailedMessage };
  };

  // The stream's end and the visitor leaving can both ask: the turn is finished once.
  let finishing: Promise<WidgetStreamEvent> | null = null;
  const end = () => (finishing ??= finish());

  /** The next event to send, or null once the last one has gone. */
  const next = async (): Promise<WidgetStreamEvent | null> => {
    if (closed) return null;
    for (;;) {
      let part: Awaited<ReturnType<typeof parts.next>>;
      try {
        part = await parts.next();
      } catch (error) {
        streamed.reportFailure(error);
        closed = true;
        return end();
      }
      if (part.done) {
        closed = true;
        return end();
      }
      const value = part.value;
      if (value.type === 'text-delta' && value.text !== '') {
        text += value.text;
        return { type: 'delta', text: value.text };
      }
      if (value.type === 'error') {
        streamed.reportFailure(value.error);
      }
    }
  };

  const shown = visitorSources(widget, prepared.sources);
  const opening: WidgetStreamEvent[] = [
    { type: 'start', conversation_id: conversationId, message_id: replyId },
    ...(shown.length > 0 ? [{ type: 'sources' as const, sources: shown }] : []),
  ];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(opening.map(sse).join('')));
    },
    async pull(controller) {
      const event = await next();
      if (event === null) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(sse(event)));
      if (closed) controller.close();
    },
    async cancel() {
      stop.abort();
      if (!closed) {
        closed = true;
        // The visitor went away: the reply is still stored as far as it got.
        void parts
          .return?.()
          .catch(() => undefined)
          .finally(() => void end().catch((err: unknown) => log.warn({ err }, 'ending failed')));
      }
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
};
