import {
  embedMany,
  experimental_streamTextLowMemory as streamText,
  streamText as streamTextWhole,
  type ModelMessage,
  type StopCondition,
  type ToolChoice,
  type ToolSet,
  type UIMessageChunk,
} from 'ai';
import { messageFor } from '@chorus/shared/error-catalogue';
import { rateLimitWindows } from '@chorus/shared/limits';
import type { UsageSource } from '@chorus/shared/api/usage';
import { providers, resolveModel, type ProviderId } from '@chorus/shared/providers';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { SAVE_WAIT_MS, settledWithin } from '../lifecycle/pending-writes.ts';
import { admit, type Admission } from './admission.ts';
import { resolveProviderKey, type ResolvedKey } from './keys.ts';
import {
  classifyProviderError,
  describeProviderError,
  rateLimitOf,
  type ProviderFailure,
} from './provider-errors.ts';
import { asV4, openPlainStream, plainPrompt, plainUiChunks } from './plain-stream.ts';
import { getEmbeddingModel, getLanguageModel } from './registry.ts';
import { stallGuardedFetch } from './stall-guard.ts';
import { usageMeter, type CallUsage } from './usage.ts';

export type { CallUsage } from './usage.ts';

/** Who pays for a call, what it is for, and which model it goes to. */
export type ModelCallRequest = {
  /**
   * Whose keys, plan and quota the call runs on (ARCHITECTURE §11 "who pays"): the caller's for
   * shared custom AIs, agents and scenarios; the owner's for a widget, inside its own budget.
   */
  userId: string;
  source: UsageSource;
  provider: ProviderId;
  /** A model of the provider's catalogue (others fall back to its default, except OpenRouter). */
  model?: string | null | undefined;
  /** A key given with the request (the proxy's `apiKey`); otherwise own → default → system. */
  explicitKey?: string | undefined;
  /** `data` spends the caller's per-user request window; `none` for admitted background work. */
  rateLimit?: 'data' | 'none';
  /** Prompts this call counts against the daily quota; default 1. */
  prompts?: number;
};

export type CallSettings<TOOLS extends ToolSet = ToolSet> = {
  messages: ModelMessage[];
  system?: string | undefined;
  tools?: TOOLS | undefined;
  toolChoice?: ToolChoice<TOOLS> | undefined;
  stopWhen?: StopCondition<TOOLS> | StopCondition<TOOLS>[] | undefined;
  temperature?: number | undefined;
  topP?: number | undefined;
  maxOutputTokens?: number | undefined;
  /** The caller's stop: the request closed, the user pressed stop, the run was cancelled. */
  signal?: AbortSignal | undefined;
  /** The whole call; default none for streams (the idle limit guards them), 60 s otherwise. */
  timeoutMs?: number | undefined;
  /** Retries of a 429 or 5xx before the first token; default 2. */
  maxRetries?: number | undefined;
};

export type StreamEnd = {
  text: string;
  sources: { url: string; title?: string | undefined }[];
  usage: CallUsage;
  /** The assistant and tool messages of every step, for a run that goes on later (issue 18). */
  responseMessages: ModelMessage[];
  /** Model calls made: more than one when tools were called. */
  steps: number;
};

export type StreamEvents = {
  onTextDelta?: (delta: string) => void;
  onFinish?: (end: StreamEnd) => void | Promise<void>;
  /** `caller`: the signal fired; `timeout`: the call ran out of its total time. */
  onAbort?: (end: { by: 'caller' | 'timeout'; usage: CallUsage }) => void | Promise<void>;
  onError?: (failure: ProviderFailure & { usage: CallUsage }) => void | Promise<void>;
};

export type StreamedCall<TOOLS extends ToolSet = ToolSet> = {
  result: ReturnType<typeof streamText<TOOLS>>;
  /**
   * Settles once the request to the provider has left (or the call ended before it could). Work
   * that must not hold the request up, such as storing the turn on the embedded database, whose
   * queries take the event loop, starts after it.
   */
  sent: Promise<void>;
  /**
   * For a failure that reached the consumer of the stream rather than the provider call's own
   * error handler (a provider dropping the connection mid-reply fails the stream itself):
   * records it once and answers the message a person should read.
   */
  reportFailure(error: unknown): string;
};

/** A streamed call as UI message chunks, for a route that answers with a UI message stream. */
export type StreamedUi = {
  parts: AsyncIterable<UIMessageChunk>;
  /** As `StreamedCall.sent`. */
  sent: Promise<void>;
  /** As `StreamedCall.reportFailure`. */
  reportFailure(error: unknown): string;
};

export type ModelCall = {
  readonly provider: ProviderId;
  readonly model: string;
  readonly keySource: ResolvedKey['source'];
  /** Streams the reply. Usage is recorded however the stream ends. */
  stream<TOOLS extends ToolSet = ToolSet>(
    settings: CallSettings<TOOLS>,
    events?: StreamEvents,
  ): StreamedCall<TOOLS>;
  /**
   * Streams the reply as UI message chunks (`metadata` on the first). A plain turn (text only, no
   * tools) is read straight from the provider model (plain-stream.ts, ADR 017); any other goes
   * through `streamText` and `toUIMessageStream`. Both end, report and record the same way.
   */
  streamUi(
    settings: CallSettings,
    events: StreamEvents,
    ui: { metadata?: unknown; sendSources?: boolean },
  ): StreamedUi;
  /** The whole reply at once; a failure is a typed ApiError (502 provider, 504 timeout). */
  generate<TOOLS extends ToolSet = ToolSet>(
    settings: CallSettings<TOOLS>,
  ): Promise<{
    text: string;
    usage: CallUsage;
    /** A tool that needs approval was called: the loop stopped there, nothing approved it. */
    approvalRequested: boolean;
  }>;
  /** What a person should read when this call failed. */
  describe(error: unknown): string;
  /** Gives back the prompts counted, when the call will not be made after all. */
  refund(): Promise<void>;
};

/**
 * A non-streamed call that failed at the provider: a 502 like any other, which also tells a
 * caller that schedules its own retries (the test runner) whether it was a 429 and how long the
 * provider asked to wait.
 */
export class ProviderCallError extends ApiError {
  constructor(
    message: string,
    readonly rateLimit: { retryAfterMs: number | null } | null,
  ) {
    super(502, 'provider:failed', message);
  }
}

/** A non-streamed call's whole time, unless its caller sets another. */
const defaultTimeoutMs = 60_000;

const missingKey = (provider: ProviderId) =>
  new ApiError(
    400,
    'keys:missing',
    messageFor('keys:missing', { provider: providers[provider].name }),
  );

/**
 * THE model-call seam (ARCHITECTURE §11). Resolves the payer's key (cached), then checks the rate
 * limit, the plan and the daily quota in one database round trip, and only then hands back a
 * call that can reach the provider: a refused request never spends anyone's key. Everything
 * that calls a model — chat, the proxy, scenarios, agents, workflows, schedules, tests, the
 * widget, the knowledge base — comes through here and differs only in what it stores.
 */
export const prepareModelCall = async (deps: Deps, req: ModelCallRequest): Promise<ModelCall> => {
  const { provider } = req;
  const model = resolveModel(provider, req.model);
  const key = await resolveProviderKey(deps, {
    userId: req.userId,
    provider,
    explicitKey: req.explicitKey,
  });
  if (!key) throw missingKey(provider);
  const admission = await admit(deps.database.db, {
    userId: req.userId,
    provider,
    model,
    prompts: req.prompts ?? 1,
    rateLimit:
      req.rateLimit === 'none'
        ? null
        : {
            key: `data:user:${req.userId}`,
            window: { ...rateLimitWindows.data, points: deps.config.rateLimitDataPoints },
            operation: 'Data request',
          },
  });
  return modelCall(deps, req, model, key, admission);
};

const modelCall = (
  deps: Deps,
  req: ModelCallRequest,
  model: string,
  key: ResolvedKey,
  admission: Admission,
): ModelCall => {
  const { provider } = req;
  const languageModel = (fetch?: typeof globalThis.fetch) =>
    getLanguageModel({
      provider,
      model,
      apiKey: key.apiKey,
      baseUrls: deps.config.providerBaseUrls,
      fetch,
    });
  const meter = () =>
    usageMeter({
      db: deps.database.db,
      userId: req.userId,
      source: req.source,
      provider,
      model,
      saves: deps.saves,
    });
  const describe = (error: unknown) => describeProviderError(provider, error);
  const warn = (error: unknown, what: string) =>
    deps.log.warn(
      { provider, source: req.source, err: error instanceof Error ? error.message : String(error) },
      what,
    );

  /**
   * What every streamed call keeps: its usage meter, when its request left (`sent`), the
   * stall-guarded fetch that tells it, and `fail`, which records a failure once and reports it.
   */
  const streamCall = (events: StreamEvents) => {
    const usage = meter();
    let markSent!: () => void;
    const sent = new Promise<void>((resolve) => (markSent = resolve));
    const guarded = stallGuardedFetch(deps.config.providerIdleTimeoutMs);
    const sending: typeof globalThis.fetch = (input, init) => {
      const response = guarded(input, init);
      markSent();
      return response;
    };
    let failedOnce = false;
    const fail = async (error: unknown) => {
      markSent();
      if (failedOnce) return;
      failedOnce = true;
      warn(error, 'provider call failed');
      const { usage: measured, saved } = usage.record('error');
      await Promise.all([
        settledWithin(saved, SAVE_WAIT_MS),
        events.onError?.({ ...classifyProviderError(provider, error), usage: measured }),
      ]);
    };
    return { usage, sent, markSent, sending, fail };
  };

  /** The pass-through for a plain turn (plain-stream.ts); null when the model cannot take it. */
  const plainStream = (
    prompt: NonNullable<ReturnType<typeof plainPrompt>>,
    settings: CallSettings,
    events: StreamEvents,
    ui: { metadata?: unknown; sendSources?: boolean },
  ): StreamedUi | null => {
    const { usage, sent, markSent, sending, fail } = streamCall(events);
    const v4 = asV4(languageModel(sending));
    if (!v4) return null;
    const signal = settings.signal;
    const opened = openPlainStream(v4, prompt, {
      temperature: settings.temperature,
      topP: settings.topP,
      maxOutputTokens: settings.maxOutputTokens,
      maxRetries: settings.maxRetries ?? 2,
      signal,
    });
    // Read by the chunks below; a reader gone before then must not leave it unhandled.
    opened.catch(() => markSent());
    const parts = plainUiChunks(opened, {
      metadata: ui.metadata,
      sendSources: ui.sendSources ?? false,
      signal,
      onTextDelta: (delta) => {
        usage.firstToken();
        events.onTextDelta?.(delta);
      },
      describeFailure: describe,
      settle: async (end) => {
        markSent();
        if (end.how === 'error') return fail(end.error);
        if (end.how === 'abort') {
          const { usage: measured, saved } = usage.record('ok');
          await Promise.all([
            settledWithin(saved, SAVE_WAIT_MS),
            events.onAbort?.({ by: 'caller', usage: measured }),
          ]);
          return;
        }
        const { usage: measured, saved } = usage.record('ok', end.tokens);
        await Promise.all([
          settledWithin(saved, SAVE_WAIT_MS),
          events.onFinish?.({
            text: end.text,
            sources: end.sources,
            usage: measured,
            responseMessages: [{ role: 'assistant', content: [{ type: 'text', text: end.text }] }],
            steps: 1,
          }),
        ]);
      },
    });
    return {
      parts,
      sent,
      reportFailure(error) {
        void fail(error);
        return describe(error);
      },
    };
  };

  const call: ModelCall = {
    provider,
    model,
    keySource: key.source,
    describe,
    refund: () => admission.refund(),

    streamUi(settings, events, ui) {
      const prompt = plainPrompt(settings);
      const streamed = prompt && plainStream(prompt, settings, events, ui);
      if (streamed) return streamed;
      const viaSdk = call.stream(settings, events);
      return {
        parts: viaSdk.result.toUIMessageStream({
          sendSources: ui.sendSources ?? false,
          messageMetadata: ({ part }) => (part.type === 'start' ? ui.metadata : undefined),
          onError: (error) => viaSdk.reportFailure(error),
        }),
        sent: viaSdk.sent,
        reportFailure: viaSdk.reportFailure,
      };
    },

    stream(settings, events = {}) {
      const { usage, sent, markSent, sending, fail } = streamCall(events);
      const signal = settings.signal;
      const result = streamText({
        model: languageModel(sending),
        messages: settings.messages,
        system: settings.system,
        tools: settings.tools,
        toolChoice: settings.toolChoice,
        ...(settings.stopWhen && { stopWhen: settings.stopWhen }),
        temperature: settings.temperature,
        topP: settings.topP,
        maxOutputTokens: settings.maxOutputTokens,
        maxRetries: settings.maxRetries ?? 2,
        abortSignal: signal,
        // The idle limit is the fetch's (stall-guard.ts): it also covers the wait for the first token.
        ...(settings.timeoutMs !== undefined && { timeout: { totalMs: settings.timeoutMs } }),
        onChunk: ({ chunk }) => {
          markSent();
          if (chunk.type === 'text-delta') {
            usage.firstToken();
            events.onTextDelta?.(chunk.text);
          }
        },
        onFinish: async ({ text, sources, totalUsage, response, steps }) => {
          markSent();
          const { usage: measured, saved } = usage.record('ok', totalUsage);
          await Promise.all([
            settledWithin(saved, SAVE_WAIT_MS),
            events.onFinish?.({
              text,
              sources: sources
                .filter((s) => s.sourceType === 'url')
                .map((s) => ({ url: s.url, ...(s.title ? { title: s.title } : {}) })),
              usage: measured,
              responseMessages: response.messages,
              steps: steps.length,
            }),
          ]);
        },
        onAbort: async () => {
          markSent();
          const { usage: measured, saved } = usage.record('ok');
          await Promise.all([
            settledWithin(saved, SAVE_WAIT_MS),
            events.onAbort?.({ by: signal?.aborted ? 'caller' : 'timeout', usage: measured }),
          ]);
        },
        onError: ({ error }) => fail(error),
      });
      return {
        result: result as never,
        sent,
        reportFailure(error) {
          void fail(error);
          return describe(error);
        },
      };
    },

    async generate(settings) {
      const usage = meter();
      const timeoutMs = settings.timeoutMs ?? defaultTimeoutMs;
      const deadline = AbortSignal.timeout(timeoutMs);
      const abortSignal = settings.signal ? AbortSignal.any([deadline, settings.signal]) : deadline;
      try {
        // Streamed, and read to its end here: the provider's silence is then measured between
        // pieces of the answer, with the same idle limit as a chat (stall-guard.ts), so a hang
        // fails within that limit, a long answer that keeps coming does not, and no retry
        // waits the hang out a second time (a stall is not retried).
        const result = streamTextWhole({
          model: languageModel(stallGuardedFetch(deps.config.providerIdleTimeoutMs)),
          messages: settings.messages,
          system: settings.system,
          tools: settings.tools,
          toolChoice: settings.toolChoice,
          ...(settings.stopWhen && { stopWhen: settings.stopWhen }),
          temperature: settings.temperature,
          topP: settings.topP,
          maxOutputTokens: settings.maxOutputTokens,
          maxRetries: settings.maxRetries ?? 1,
          abortSignal,
          // Read from the stream below, where it ends the call.
          onError: () => undefined,
        });
        let approvalRequested = false;
        for await (const part of result.fullStream) {
          if (part.type === 'error') throw part.error;
          if (part.type === 'abort') throw abortSignal.reason ?? new Error('The call was stopped.');
          if (part.type === 'tool-approval-request') approvalRequested = true;
        }
        const [text, totalUsage] = await Promise.all([result.text, result.totalUsage]);
        const { usage: measured, saved } = usage.record('ok', totalUsage);
        await settledWithin(saved, SAVE_WAIT_MS);
        return { text, usage: measured, approvalRequested };
      } catch (error) {
        await settledWithin(usage.record('error').saved, SAVE_WAIT_MS);
        if (deadline.aborted || (error instanceof Error && error.name === 'TimeoutError')) {
          throw new ApiError(
            504,
            'provider:timeout',
            messageFor('provider:timeout', {
              provider: providers[provider].name,
              seconds: Math.round(timeoutMs / 1000),
            }),
          );
        }
        warn(error, 'provider call failed');
        const failure = classifyProviderError(provider, error);
        if (failure.code === 'provider:stalled')
          throw new ApiError(504, 'provider:stalled', failure.message);
        throw new ProviderCallError(failure.message, rateLimitOf(error));
      }
    },
  };
  return call;
};

/**
 * Embeddings through the same seam: the payer's key, rate limit, plan and quota, usage with
 * source `knowledge` (or the caller's). Providers without an embedding model are refused with a
 * message that names the ones that have one.
 */
export const embedTexts = async (
  deps: Deps,
  req: Omit<ModelCallRequest, 'model'> & {
    model: string;
    values: string[];
    dimensions?: number | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<{ embeddings: number[][]; usage: CallUsage }> => {
  const { provider, model } = req;
  const key = await resolveProviderKey(deps, {
    userId: req.userId,
    provider,
    explicitKey: req.explicitKey,
  });
  if (!key) throw missingKey(provider);
  const embeddingModel = getEmbeddingModel({
    provider,
    model,
    apiKey: key.apiKey,
    baseUrls: deps.config.providerBaseUrls,
    // The same idle limit as every model call: an answer that does not start within it fails,
    // and a stall is not retried.
    fetch: stallGuardedFetch(deps.config.providerIdleTimeoutMs),
  });
  if (!embeddingModel) {
    throw new ApiError(
      400,
      'knowledge:no_embedding_model',
      messageFor('knowledge:no_embedding_model', { provider: providers[provider].name }),
    );
  }
  await admit(deps.database.db, {
    userId: req.userId,
    provider,
    model,
    prompts: req.prompts ?? 0,
    rateLimit: null,
  });
  const usage = usageMeter({
    db: deps.database.db,
    userId: req.userId,
    source: req.source,
    provider,
    model,
    saves: deps.saves,
  });
  try {
    const result = await embedMany({
      model: embeddingModel,
      values: req.values,
      ...(req.dimensions !== undefined && { dimensions: req.dimensions }),
      maxRetries: 2,
      abortSignal: AbortSignal.any(
        [AbortSignal.timeout(defaultTimeoutMs), req.signal].filter(
          (s): s is AbortSignal => s !== undefined,
        ),
      ),
    });
    const { usage: measured, saved } = usage.record('ok', {
      inputTokens: result.usage.tokens,
      outputTokens: 0,
    });
    await settledWithin(saved, SAVE_WAIT_MS);
    return { embeddings: result.embeddings, usage: measured };
  } catch (error) {
    await settledWithin(usage.record('error').saved, SAVE_WAIT_MS);
    // A rate limit is told apart, so background work can wait and try again.
    const failure = classifyProviderError(provider, error);
    if (failure.code === 'provider:rate_limited') {
      throw new ApiError(429, 'provider:rate_limited', failure.message);
    }
    if (failure.code === 'provider:stalled')
      throw new ApiError(504, 'provider:stalled', failure.message);
    throw new ApiError(502, 'provider:failed', failure.message);
  }
};
