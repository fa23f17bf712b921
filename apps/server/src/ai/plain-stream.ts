import type {
  LanguageModelV4,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { APICallError, type LanguageModel, type ModelMessage, type UIMessageChunk } from 'ai';

/**
 * A plain chat turn read straight from the provider model (ADR 017): the provider package's own
 * `doStream` parses the wire format, as under `streamText`, and each of its parts becomes the UI
 * message chunk `toUIMessageStream` would have made of it, in one step. `streamText` adds about
 * ten web-stream stages per token for steps, tools, outputs and replay that a plain turn has no
 * use for (220 µs of CPU per token at a provider's pace; docs/BENCHMARKS.md).
 */

/** What a plain turn may carry: text only, no tools, no steps, no total time limit. */
export type PlainSettings = {
  messages: ModelMessage[];
  system?: string | undefined;
  tools?: unknown;
  toolChoice?: unknown;
  stopWhen?: unknown;
  timeoutMs?: number | undefined;
};

/**
 * The provider prompt of a plain turn, or null when the turn needs `streamText`: tools, steps,
 * a total time limit, or any message that is not plain text (attachments).
 */
export const plainPrompt = (settings: PlainSettings): LanguageModelV4Prompt | null => {
  if (settings.tools || settings.toolChoice || settings.stopWhen) return null;
  if (settings.timeoutMs !== undefined) return null;
  const prompt: LanguageModelV4Prompt = [];
  if (settings.system) prompt.push({ role: 'system', content: settings.system });
  for (const message of settings.messages) {
    if (typeof message.content !== 'string') return null;
    if (message.role === 'system') prompt.push({ role: 'system', content: message.content });
    else if (message.role === 'user' || message.role === 'assistant') {
      prompt.push({ role: message.role, content: [{ type: 'text', text: message.content }] });
    } else return null;
  }
  return prompt;
};

/** The model as the provider package made it, when it speaks the interface read here. */
export const asV4 = (model: LanguageModel): LanguageModelV4 | null =>
  typeof model === 'object' && model.specificationVersion === 'v4'
    ? (model as LanguageModelV4)
    : null;

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * How long to wait before trying again, as the AI SDK's retry does: the provider's
 * `retry-after-ms` or `retry-after` when it is under a minute, else 2 s doubling.
 */
const retryDelayMs = (error: APICallError, attempt: number) => {
  const backoff = 2_000 * 2 ** attempt;
  const headers = error.responseHeaders;
  let ms: number | undefined;
  const afterMs = headers?.['retry-after-ms'];
  if (afterMs && !Number.isNaN(parseFloat(afterMs))) ms = parseFloat(afterMs);
  const after = headers?.['retry-after'];
  if (after && ms === undefined) {
    const seconds = parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoff)
    ? ms
    : backoff;
};

/** Opens the provider's stream, trying a 429 or 5xx again before the first token. */
export const openPlainStream = async (
  model: LanguageModelV4,
  prompt: LanguageModelV4Prompt,
  options: {
    temperature?: number | undefined;
    topP?: number | undefined;
    maxOutputTokens?: number | undefined;
    maxRetries: number;
    signal?: AbortSignal | undefined;
  },
): Promise<ReadableStream<LanguageModelV4StreamPart>> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const { stream } = await model.doStream({
        prompt,
        temperature: options.temperature,
        topP: options.topP,
        maxOutputTokens: options.maxOutputTokens,
        abortSignal: options.signal,
        includeRawChunks: false,
      });
      return stream;
    } catch (error) {
      if (
        options.signal?.aborted ||
        !APICallError.isInstance(error) ||
        !error.isRetryable ||
        attempt >= options.maxRetries
      ) {
        throw error;
      }
      await sleep(retryDelayMs(error, attempt), options.signal);
    }
  }
};

/** How a plain stream ended, for the seam's usage and its caller's events. */
export type PlainEnd =
  | {
      how: 'finish';
      text: string;
      sources: { url: string; title?: string | undefined }[];
      tokens: { inputTokens: number | undefined; outputTokens: number | undefined };
    }
  | { how: 'abort' }
  | { how: 'error'; error: unknown };

/**
 * The UI message chunks of one plain turn. `opened` is the provider call, started before the
 * first chunk is asked for (the caller's first chunk may wait for its own write). `settle` hears
 * how the turn ended, once, whether the reader read to the end or went away: the text, sources
 * and token counts of a finish; an abort; or an error, whose message it answers for the UI.
 */
export async function* plainUiChunks(
  opened: Promise<ReadableStream<LanguageModelV4StreamPart>>,
  opts: {
    metadata?: unknown;
    sendSources: boolean;
    signal?: AbortSignal | undefined;
    onTextDelta: (delta: string) => void;
    /** The failure's message for the person; called for each error, the first one counts. */
    describeFailure: (error: unknown) => string;
    settle: (end: PlainEnd) => Promise<void>;
  },
): AsyncGenerator<UIMessageChunk, void, undefined> {
  let settled = false;
  const settle = (end: PlainEnd) => {
    if (settled) return Promise.resolve();
    settled = true;
    return opts.settle(end);
  };
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
  let text = '';
  let failed = false;
  const sources: { url: string; title?: string | undefined }[] = [];
  try {
    yield {
      type: 'start',
      ...(opts.metadata !== undefined && { messageMetadata: opts.metadata }),
    };
    try {
      reader = (await opened).getReader();
      yield { type: 'start-step' };
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case 'text-start':
          case 'text-end':
          case 'reasoning-start':
          case 'reasoning-end':
            yield {
              type: part.type,
              id: part.id,
              ...(part.providerMetadata && { providerMetadata: part.providerMetadata }),
            };
            break;
          case 'text-delta':
            // The AI SDK passes no empty deltas on (Perplexity sends some).
            if (part.delta === '') break;
            text += part.delta;
            opts.onTextDelta(part.delta);
            yield {
              type: 'text-delta',
              id: part.id,
              delta: part.delta,
              ...(part.providerMetadata && { providerMetadata: part.providerMetadata }),
            };
            break;
          case 'reasoning-delta':
            yield {
              type: 'reasoning-delta',
              id: part.id,
              delta: part.delta,
              ...(part.providerMetadata && { providerMetadata: part.providerMetadata }),
            };
            break;
          case 'source':
            if (part.sourceType !== 'url') break;
            sources.push({ url: part.url, ...(part.title ? { title: part.title } : {}) });
            if (opts.sendSources) {
              yield {
                type: 'source-url',
                sourceId: part.id,
                url: part.url,
                ...(part.title !== undefined && { title: part.title }),
                ...(part.providerMetadata && { providerMetadata: part.providerMetadata }),
              };
            }
            break;
          case 'custom':
            yield part as UIMessageChunk;
            break;
          case 'error':
            failed = true;
            yield { type: 'error', errorText: opts.describeFailure(part.error) };
            await settle({ how: 'error', error: part.error });
            break;
          case 'finish':
            yield { type: 'finish-step' };
            yield { type: 'finish', finishReason: part.finishReason.unified };
            if (!failed) {
              await settle({
                how: 'finish',
                text,
                sources,
                tokens: {
                  inputTokens: part.usage.inputTokens.total,
                  outputTokens: part.usage.outputTokens.total,
                },
              });
            }
            break;
          default:
            // stream-start, response-metadata, ping, raw: nothing for the UI.
            break;
        }
      }
      // A stream that ends without its finish was cut short.
      if (!settled) {
        const error = new Error('The provider ended the reply without finishing it.');
        yield { type: 'error', errorText: opts.describeFailure(error) };
        await settle({ how: 'error', error });
      }
    } catch (error) {
      if (opts.signal?.aborted) {
        yield { type: 'abort' };
        await settle({ how: 'abort' });
      } else {
        yield { type: 'error', errorText: opts.describeFailure(error) };
        await settle({ how: 'error', error });
      }
    }
  } finally {
    // The reader went away before the end: the provider call stops, and the turn ends as stopped.
    if (!settled) {
      void reader?.cancel().catch(() => undefined);
      void settle({ how: 'abort' });
    }
  }
}
