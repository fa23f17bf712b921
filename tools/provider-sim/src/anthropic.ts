/** Anthropic's Messages API at `/anthropic/v1`: `x-api-key` and `anthropic-version` headers. */
import {
  runChat,
  runModelList,
  sendError,
  type ChatDialect,
  type ErrorDialect,
  type ErrorKind,
  type Provider,
  type SimContext,
} from './engine.ts';
import {
  asArray,
  asRecord,
  asString,
  bearerToken,
  headerValue,
  type Frame,
  type Json,
} from './http.ts';
import {
  pieces,
  resultText,
  splitToolResults,
  textOf,
  type ChatInput,
  type ChatMessage,
  type Reply,
  type ToolCall,
  type ToolDefinition,
} from './script.ts';

const errorTypes: Record<ErrorKind, string> = {
  'missing-key': 'authentication_error',
  'invalid-key': 'authentication_error',
  'rate-limit': 'rate_limit_error',
  'server-error': 'api_error',
  'bad-request': 'invalid_request_error',
  'not-found': 'not_found_error',
};

const errors: ErrorDialect = {
  messages: {
    'missing-key': 'x-api-key header is required',
    'invalid-key': 'invalid x-api-key',
    'rate-limit':
      'Number of requests has exceeded your rate limit (simulated). Please try again later.',
    'server-error': 'Internal server error',
  },
  body: (kind, _status, message) => ({
    type: 'error',
    error: { type: errorTypes[kind], message },
    request_id: 'req_sim',
  }),
};

const blocksOf = (content: unknown, type: string) =>
  asArray(content).flatMap((block) => {
    const b = asRecord(block);
    return b?.type === type ? [b] : [];
  });

/** An Anthropic message as the simulator sees it: `tool_use` and `tool_result` blocks. */
const parseMessage = (message: unknown): ChatMessage[] => {
  const m = asRecord(message);
  const role = asString(m?.role) ?? '';
  const text = textOf(m?.content);
  const toolCalls = blocksOf(m?.content, 'tool_use').flatMap((block) => {
    const name = asString(block.name);
    return name
      ? [{ id: asString(block.id), name, arguments: JSON.stringify(block.input ?? {}) }]
      : [];
  });
  const toolResults = blocksOf(m?.content, 'tool_result').map((block) => ({
    id: asString(block.tool_use_id),
    output: Array.isArray(block.content) ? textOf(block.content) : resultText(block.content ?? ''),
  }));
  return splitToolResults(role, text, toolCalls, toolResults);
};

/** Custom tools (`{name, description, input_schema}`); server tools carry a versioned `type`. */
const parseTools = (tools: unknown): ToolDefinition[] =>
  asArray(tools).flatMap((tool) => {
    const t = asRecord(tool);
    const name = asString(t?.name);
    if (!t || !name || (t.type !== undefined && t.type !== 'custom')) return [];
    return [{ name, description: asString(t.description), parameters: t.input_schema }];
  });

const parse = (body: unknown): ChatInput | string => {
  const b = asRecord(body);
  const model = asString(b?.model);
  if (!b || !model) return 'model: Field required';
  if (typeof b.max_tokens !== 'number') return 'max_tokens: Field required';
  if (!Array.isArray(b.messages)) return 'messages: Field required';
  const system = textOf(b.system);
  return {
    model,
    stream: b.stream === true,
    includeUsage: true,
    webSearch: false,
    tools: parseTools(b.tools),
    toolsDisabled: asRecord(b.tool_choice)?.type === 'none',
    messages: [
      ...(system ? [{ role: 'system', text: system }] : []),
      ...asArray(b.messages).flatMap(parseMessage),
    ],
  };
};

const usage = (reply: Reply, outputTokens: number) => ({
  input_tokens: reply.promptTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: outputTokens,
  service_tier: 'standard',
});

const toolUseId = (call: ToolCall) => `toolu_${call.id}`;

const stopReason = (reply: Reply) => (reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn');

const content = (reply: Reply) =>
  reply.toolCalls.length > 0
    ? reply.toolCalls.map((call) => ({
        type: 'tool_use',
        id: toolUseId(call),
        name: call.name,
        input: call.input,
      }))
    : [{ type: 'text', text: reply.text }];

const message = (reply: Reply, done: boolean) => ({
  id: `msg_${reply.id}`,
  type: 'message',
  role: 'assistant',
  model: reply.model,
  content: done ? content(reply) : [],
  stop_reason: done ? stopReason(reply) : null,
  stop_sequence: null,
  usage: usage(reply, done ? reply.completionTokens : 1),
});

const dialect: ChatDialect = {
  label: 'Anthropic',
  errors,
  framing: 'sse',
  parse,
  json: (reply) => message(reply, true),
  stream: (reply) => {
    const event = (type: string, fields: Json = {}): Frame => ({
      event: type,
      data: { type, ...fields },
    });
    const text = reply.toolCalls.length === 0;
    return {
      start: () => [
        event('message_start', { message: message(reply, false) }),
        ...(text
          ? [event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })]
          : []),
        event('ping'),
      ],
      delta: (text) => [
        event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      ],
      toolCall: (call) => [
        event('content_block_start', {
          index: call.index,
          content_block: { type: 'tool_use', id: toolUseId(call), name: call.name, input: {} },
        }),
        ...['', ...pieces(call.arguments)].map((partial_json) =>
          event('content_block_delta', {
            index: call.index,
            delta: { type: 'input_json_delta', partial_json },
          }),
        ),
        event('content_block_stop', { index: call.index }),
      ],
      finish: () => [
        ...(text ? [event('content_block_stop', { index: 0 })] : []),
        event('message_delta', {
          delta: { stop_reason: stopReason(reply), stop_sequence: null },
          usage: { output_tokens: reply.completionTokens },
        }),
        event('message_stop'),
      ],
    };
  },
};

const apiKey = (ctx: SimContext) => headerValue(ctx.req, 'x-api-key') ?? bearerToken(ctx.req);

const withVersion =
  (next: (ctx: SimContext) => Promise<void>) =>
  async (ctx: SimContext): Promise<void> => {
    if (headerValue(ctx.req, 'anthropic-version') === undefined) {
      return sendError(ctx, errors, 'bad-request', 'anthropic-version: header is required');
    }
    return next(ctx);
  };

export const anthropicModels = [
  ['claude-sonnet-4-5', 'Claude Sonnet 4.5'],
  ['claude-haiku-4-5', 'Claude Haiku 4.5'],
  ['claude-opus-4-1', 'Claude Opus 4.1'],
] as const;

export const anthropic: Provider = {
  name: 'anthropic',
  prefix: '/anthropic/v1',
  errors,
  routes: [
    {
      method: 'POST',
      pattern: /^\/messages$/,
      handle: withVersion((ctx) => runChat(ctx, dialect, apiKey(ctx))),
    },
    {
      method: 'GET',
      pattern: /^\/models$/,
      handle: withVersion((ctx) =>
        runModelList(ctx, errors, apiKey(ctx), (empty) => {
          const data = (empty ? [] : anthropicModels).map(([id, name]) => ({
            type: 'model',
            id,
            display_name: name,
            created_at: '2025-01-01T00:00:00Z',
          }));
          return {
            data,
            has_more: false,
            first_id: data[0]?.id ?? null,
            last_id: data.at(-1)?.id ?? null,
          };
        }),
      ),
    },
  ],
};
