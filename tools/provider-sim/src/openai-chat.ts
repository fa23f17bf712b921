/**
 * The OpenAI chat completions dialect (`POST …/chat/completions`), which OpenAI, DeepSeek, Mistral,
 * Perplexity, OpenRouter and Ollama's `/v1` all speak with small differences ("flavours").
 */
import type { ChatDialect, ErrorDialect } from './engine.ts';
import { asArray, asRecord, asString, type Frame, type Json } from './http.ts';
import {
  pieces,
  textOf,
  type ChatInput,
  type ChatMessage,
  type Reply,
  type ToolCall,
  type ToolDefinition,
} from './script.ts';

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
  /** The API has no tools and ignores a `tools` field (Perplexity). */
  noTools?: boolean;
  /**
   * How a stream sends a tool call: `pieces` — a first delta with id and name, then the arguments
   * in pieces (OpenAI, DeepSeek, OpenRouter); `whole` — one delta with everything (Mistral, Ollama).
   */
  toolCallStreaming?: 'pieces' | 'whole';
  /** The id of a tool call; OpenAI's `call_…` unless set. */
  toolCallId?(call: ToolCall): string;
  /** `content` of an assistant message that calls tools: OpenAI sends null, others "". */
  toolCallContent?: null | '';
  /** Fields added at the top level of the JSON answer and of every stream chunk. */
  topLevel?(reply: Reply): Json;
};

/** The function tools of an OpenAI-style `tools` field: `[{type:'function', function:{…}}]`. */
export const openAIFunctionTools = (tools: unknown): ToolDefinition[] =>
  asArray(tools).flatMap((tool) => {
    const t = asRecord(tool);
    const fn = asRecord(t?.function);
    const name = asString(fn?.name);
    if (t?.type !== 'function' || !fn || !name) return [];
    return [{ name, description: asString(fn.description), parameters: fn.parameters }];
  });

/** An OpenAI-style message: `tool_calls` on assistant messages, `role: 'tool'` for results. */
const parseMessage = (message: unknown): ChatMessage => {
  const m = asRecord(message);
  const role = asString(m?.role) ?? '';
  const text = textOf(m?.content);
  if (role === 'tool') {
    return {
      role,
      text,
      toolResults: [{ id: asString(m?.tool_call_id), name: asString(m?.name), output: text }],
    };
  }
  const toolCalls = asArray(m?.tool_calls).flatMap((call) => {
    const c = asRecord(call);
    const fn = asRecord(c?.function);
    const name = asString(fn?.name);
    if (!name) return [];
    return [{ id: asString(c?.id), name, arguments: asString(fn?.arguments) }];
  });
  return { role, text, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
};

export const parseOpenAIChat = (body: unknown, noTools = false): ChatInput | string => {
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
    tools: noTools ? [] : openAIFunctionTools(b.tools),
    toolsDisabled: b.tool_choice === 'none',
    messages: asArray(b.messages).map(parseMessage),
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
  const callId = (call: ToolCall) => flavour.toolCallId?.(call) ?? `call_${call.id}`;
  const toolCallContent = flavour.toolCallContent === undefined ? null : flavour.toolCallContent;
  const calls = (reply: Reply) => reply.toolCalls.length > 0;
  const finishReason = (reply: Reply) => (calls(reply) ? 'tool_calls' : 'stop');

  return {
    label: flavour.label,
    errors: flavour.errors,
    framing: 'sse',
    keyOptional: flavour.keyOptional,
    alternatingError: flavour.alternatingError,
    parse: (body) => parseOpenAIChat(body, flavour.noTools),

    json: (reply) => ({
      ...header(reply, 'chat.completion'),
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: calls(reply) ? toolCallContent : reply.text,
            ...(calls(reply)
              ? {
                  tool_calls: reply.toolCalls.map((call) => ({
                    id: callId(call),
                    type: 'function',
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }
              : {}),
            ...(flavour.openaiFields ? { refusal: null, annotations: [] } : {}),
          },
          ...(flavour.openaiFields ? { logprobs: null } : {}),
          finish_reason: finishReason(reply),
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
              content: calls(reply) ? toolCallContent : '',
              ...(flavour.openaiFields ? { refusal: null } : {}),
            },
            null,
          ),
        ],
        delta: (text) => [chunk({ content: text }, null)],
        toolCall: (call) => {
          const head = { index: call.index, id: callId(call), type: 'function' };
          if (flavour.toolCallStreaming === 'whole') {
            const fn = { name: call.name, arguments: call.arguments };
            return [chunk({ tool_calls: [{ ...head, function: fn }] }, null)];
          }
          return [
            chunk(
              { tool_calls: [{ ...head, function: { name: call.name, arguments: '' } }] },
              null,
            ),
            ...pieces(call.arguments).map((part) =>
              chunk({ tool_calls: [{ index: call.index, function: { arguments: part } }] }, null),
            ),
          ];
        },
        finish: () => [
          flavour.streamUsage === 'finish-chunk'
            ? chunk({ content: '' }, finishReason(reply), { usage: usageOf(reply) })
            : chunk({}, finishReason(reply)),
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
