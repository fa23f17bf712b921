/**
 * The OpenAI chat completions dialect (`POST …/chat/completions`), which OpenAI, DeepSeek, Mistral,
 * Perplexity, OpenRouter and Ollama's `/v1` all speak with small differences ("flavours").
 */
import type { ChatDialect, ErrorDialect } from './engine.ts';
import { asArray, asRecord, asString, type Frame, type Json } from './http.ts';
import { textOf, type ChatInput, type Reply } from './script.ts';

export type OpenAIChatFlavour = {
  label: string;
  errors: ErrorDialect;
  keyOptional?: boolean;
  alternatingError?: string;
  /**
   * Where a stream reports usage: `if-requested` — a last chunk with `choices: []`, only when
   * `stream_options.include_usage` is set (OpenAI, Ollama); `finish-chunk` — on the chunk that
   * carries `finish_reason`, always (DeepSeek, Mistral, Perplexity); `own-chunk` — a last chunk
   * with `choices: []`, always (OpenRouter).
   */
  streamUsage: 'if-requested' | 'finish-chunk' | 'own-chunk';
  systemFingerprint?: string;
  /** OpenAI's `refusal`/`annotations` message fields and `logprobs: null`. */
  openaiFields?: boolean;
  /** `data: [DONE]` at the end of a stream (every flavour except Perplexity's). */
  doneSentinel?: boolean;
  /** SSE comments sent before the first chunk (OpenRouter's keep-alive). */
  preamble?: string;
  usageExtra?(reply: Reply): Json;
  /** Fields added at the top level of the JSON answer and of every stream chunk. */
  topLevel?(reply: Reply): Json;
};

export const parseOpenAIChat = (body: unknown): ChatInput | string => {
  const b = asRecord(body);
  const model = asString(b?.model);
  if (!b || !model) return 'you must provide a model parameter';
  if (!Array.isArray(b.messages) || b.messages.length === 0) {
    return "Missing required parameter: 'messages'.";
  }
  return {
    model,
    stream: b.stream === true,
    includeUsage: asRecord(b.stream_options)?.include_usage === true,
    webSearch: false,
    messages: asArray(b.messages).map((m) => ({
      role: asString(asRecord(m)?.role) ?? '',
      text: textOf(asRecord(m)?.content),
    })),
  };
};

export const openAIChatDialect = (flavour: OpenAIChatFlavour): ChatDialect => {
  const usageOf = (reply: Reply) => ({
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
    ...flavour.usageExtra?.(reply),
  });
  const header = (reply: Reply, object: string) => ({
    id: `chatcmpl-${reply.id}`,
    object,
    created: reply.created,
    model: reply.model,
    ...(flavour.systemFingerprint ? { system_fingerprint: flavour.systemFingerprint } : {}),
    ...flavour.topLevel?.(reply),
  });

  return {
    label: flavour.label,
    errors: flavour.errors,
    framing: 'sse',
    keyOptional: flavour.keyOptional,
    alternatingError: flavour.alternatingError,
    parse: parseOpenAIChat,

    json: (reply) => ({
      ...header(reply, 'chat.completion'),
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.text,
            ...(flavour.openaiFields ? { refusal: null, annotations: [] } : {}),
          },
          ...(flavour.openaiFields ? { logprobs: null } : {}),
          finish_reason: 'stop',
        },
      ],
      usage: usageOf(reply),
    }),

    stream: (reply, input) => {
      const chunk = (delta: Json, finishReason: string | null, extra: Json = {}): Frame => ({
        data: {
          ...header(reply, 'chat.completion.chunk'),
          choices: [
            {
              index: 0,
              delta,
              ...(flavour.openaiFields ? { logprobs: null } : {}),
              finish_reason: finishReason,
            },
          ],
          ...extra,
        },
      });
      const usageChunk: Frame = {
        data: { ...header(reply, 'chat.completion.chunk'), choices: [], usage: usageOf(reply) },
      };
      const ownUsageChunk =
        flavour.streamUsage === 'own-chunk' ||
        (flavour.streamUsage === 'if-requested' && input.includeUsage);
      return {
        start: () => [
          ...(flavour.preamble ? [{ comment: flavour.preamble }] : []),
          chunk(
            {
              role: 'assistant',
              content: '',
              ...(flavour.openaiFields ? { refusal: null } : {}),
            },
            null,
          ),
        ],
        delta: (text) => [chunk({ content: text }, null)],
        finish: () => [
          flavour.streamUsage === 'finish-chunk'
            ? chunk({ content: '' }, 'stop', { usage: usageOf(reply) })
            : chunk({}, 'stop'),
          ...(ownUsageChunk ? [usageChunk] : []),
          ...(flavour.doneSentinel === false ? [] : [{ done: true } as const]),
        ],
      };
    },
  };
};

/** The `{object:'list', data:[…]}` model list of OpenAI and the APIs that copy it. */
export const openAIModelList = (
  ids: readonly string[],
  ownedBy: string,
  created = 1_700_000_000,
) => ({
  object: 'list',
  data: ids.map((id) => ({ id, object: 'model', created, owned_by: ownedBy })),
});

const openAIErrorTypes = {
  'missing-key': ['invalid_request_error', null],
  'invalid-key': ['invalid_request_error', 'invalid_api_key'],
  'rate-limit': ['requests', 'rate_limit_exceeded'],
  'server-error': ['server_error', null],
  'bad-request': ['invalid_request_error', null],
  'not-found': ['invalid_request_error', null],
} as const;

/** OpenAI's `{error:{message,type,param,code}}`, which DeepSeek and Ollama's `/v1` copy. */
export const openAIErrors = (messages: ErrorDialect['messages']): ErrorDialect => ({
  messages,
  body: (kind, _status, message) => {
    const [type, code] = openAIErrorTypes[kind];
    return { error: { message, type, param: null, code } };
  },
});
