/**
 * Ollama at `/ollama` (the server root): the native `/api/chat` (NDJSON stream, `stream` defaults
 * to true) and `/api/tags`, and the OpenAI-compatible `/v1/chat/completions` and `/v1/models`.
 * Ollama needs no key; a Bearer key, when sent, still scripts behaviours.
 */
import {
  openAIStyleEmbeddings,
  readDimensions,
  runEmbeddings,
  type EmbeddingDialect,
} from './embeddings.ts';
import {
  runChat,
  runModelList,
  type ChatDialect,
  type ErrorDialect,
  type Provider,
} from './engine.ts';
import { asArray, asRecord, asString, bearerToken } from './http.ts';
import {
  openAIChatDialect,
  openAIErrors,
  openAIFunctionTools,
  openAIModelList,
} from './openai-chat.ts';
import { textOf, type ChatInput, type ChatMessage, type Reply, type ToolCall } from './script.ts';

const nativeErrors: ErrorDialect = {
  messages: { 'missing-key': 'unauthorized', 'invalid-key': 'unauthorized' },
  body: (_kind, _status, message) => ({ error: message }),
};

const parse = (body: unknown): ChatInput | string => {
  const b = asRecord(body);
  const model = asString(b?.model);
  if (!b || !model) return 'model is required';
  return {
    model,
    stream: b.stream !== false,
    includeUsage: true,
    webSearch: false,
    tools: openAIFunctionTools(b.tools),
    messages: asArray(b.messages).map(parseMessage),
  };
};

/** Ollama's messages: `tool_calls` with object arguments; results as `role: 'tool'` with `tool_name`. */
const parseMessage = (message: unknown): ChatMessage => {
  const m = asRecord(message);
  const role = asString(m?.role) ?? '';
  const text = textOf(m?.content);
  if (role === 'tool') {
    const name = asString(m?.tool_name) ?? asString(m?.name);
    return { role, text, toolResults: [{ id: asString(m?.tool_call_id), name, output: text }] };
  }
  const toolCalls = asArray(m?.tool_calls).flatMap((call) => {
    const fn = asRecord(asRecord(call)?.function);
    const name = asString(fn?.name);
    if (!name) return [];
    return [{ id: asString(asRecord(call)?.id), name, arguments: JSON.stringify(fn?.arguments) }];
  });
  return { role, text, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
};

const nativeToolCall = (call: ToolCall) => ({
  id: `call_${call.shortId}`,
  function: { index: call.index, name: call.name, arguments: call.input },
});

const NS_PER_TOKEN = 20_000_000;

const doneFields = (reply: Reply) => ({
  done_reason: 'stop',
  done: true,
  total_duration: (reply.promptTokens + reply.completionTokens) * NS_PER_TOKEN + 5_000_000,
  load_duration: 5_000_000,
  prompt_eval_count: reply.promptTokens,
  prompt_eval_duration: reply.promptTokens * NS_PER_TOKEN,
  eval_count: reply.completionTokens,
  eval_duration: reply.completionTokens * NS_PER_TOKEN,
});

const native: ChatDialect = {
  label: 'Ollama',
  errors: nativeErrors,
  framing: 'ndjson',
  keyOptional: true,
  parse,
  json: (reply) => ({
    model: reply.model,
    created_at: new Date().toISOString(),
    message: {
      role: 'assistant',
      content: reply.text,
      ...(reply.toolCalls.length > 0 ? { tool_calls: reply.toolCalls.map(nativeToolCall) } : {}),
    },
    ...doneFields(reply),
  }),
  stream: (reply) => {
    const line = (content: string) => ({
      model: reply.model,
      created_at: new Date().toISOString(),
      message: { role: 'assistant', content },
    });
    return {
      start: () => [],
      delta: (text) => [{ data: { ...line(text), done: false } }],
      toolCall: (call) => {
        const { message, ...rest } = line('');
        return [
          {
            data: {
              ...rest,
              message: { ...message, tool_calls: [nativeToolCall(call)] },
              done: false,
            },
          },
        ];
      },
      finish: () => [{ data: { ...line(''), ...doneFields(reply) } }],
    };
  },
};

const openAIErrorsForOllama = openAIErrors({
  'missing-key': 'unauthorized',
  'invalid-key': 'unauthorized',
});

const compatible = openAIChatDialect({
  label: 'Ollama',
  errors: openAIErrorsForOllama,
  keyOptional: true,
  streamUsage: 'if-requested',
  systemFingerprint: 'fp_ollama',
  toolCallStreaming: 'whole',
  toolCallId: (call) => `call_${call.shortId}`,
  toolCallContent: '',
});

const NS_PER_INPUT_TOKEN = 1_000_000;

/** `POST /api/embed`: `input` a string or a list; vectors under `embeddings`. */
const nativeEmbeddings: EmbeddingDialect = {
  errors: nativeErrors,
  keyOptional: true,
  defaultDimensions: 768,
  parse: (body) => {
    const b = asRecord(body);
    const model = asString(b?.model);
    if (!b || !model) return 'model is required';
    const dimensions = readDimensions(b.dimensions, 'dimensions');
    if (typeof dimensions === 'string') return dimensions;
    const input = b.input ?? [];
    const texts = typeof input === 'string' ? [input] : input;
    if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string')) {
      return 'invalid input type';
    }
    return { model, inputs: texts.map((text: string) => ({ text, dimensions })) };
  },
  json: (result) => ({
    model: result.model,
    embeddings: result.embeddings.map((e) => e.vector),
    total_duration: result.tokens * NS_PER_INPUT_TOKEN + 5_000_000,
    load_duration: 5_000_000,
    prompt_eval_count: result.tokens,
  }),
};

const compatibleEmbeddings = openAIStyleEmbeddings({
  errors: openAIErrorsForOllama,
  keyOptional: true,
  defaultDimensions: 768,
  dimensionsField: 'dimensions',
  invalidInput: 'invalid input type',
});

/** The spec's local models. */
export const ollamaModels = ['llama2:latest', 'mistral:latest', 'codellama:latest'] as const;

const tag = (name: string) => ({
  name,
  model: name,
  modified_at: '2025-01-01T00:00:00Z',
  size: 3_826_793_677,
  digest: `sha256:${name.replace(/[^a-z0-9]/g, '').padEnd(64, '0')}`,
  details: {
    parent_model: '',
    format: 'gguf',
    family: 'llama',
    families: ['llama'],
    parameter_size: '7B',
    quantization_level: 'Q4_0',
  },
});

export const ollama: Provider = {
  name: 'ollama',
  prefix: '/ollama',
  errors: nativeErrors,
  routes: [
    {
      method: 'POST',
      pattern: /^\/api\/chat$/,
      handle: (ctx) => runChat(ctx, native, bearerToken(ctx.req)),
    },
    {
      method: 'POST',
      pattern: /^\/api\/embed$/,
      handle: (ctx) => runEmbeddings(ctx, nativeEmbeddings, bearerToken(ctx.req)),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/embeddings$/,
      handle: (ctx) => runEmbeddings(ctx, compatibleEmbeddings, bearerToken(ctx.req)),
    },
    {
      method: 'GET',
      pattern: /^\/api\/tags$/,
      handle: (ctx) =>
        runModelList(
          ctx,
          nativeErrors,
          bearerToken(ctx.req),
          (empty) => ({ models: (empty ? [] : ollamaModels).map(tag) }),
          true,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/api\/version$/,
      handle: (ctx) =>
        runModelList(ctx, nativeErrors, bearerToken(ctx.req), () => ({ version: '0.12.0' }), true),
    },
    {
      method: 'POST',
      pattern: /^\/v1\/chat\/completions$/,
      handle: (ctx) => runChat(ctx, compatible, bearerToken(ctx.req)),
    },
    {
      method: 'GET',
      pattern: /^\/v1\/models$/,
      handle: (ctx) =>
        runModelList(
          ctx,
          openAIErrorsForOllama,
          bearerToken(ctx.req),
          (empty) => openAIModelList(empty ? [] : ollamaModels, 'library'),
          true,
        ),
    },
  ],
};
