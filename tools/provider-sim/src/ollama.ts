/**
 * Ollama at `/ollama` (the server root): the native `/api/chat` (NDJSON stream, `stream` defaults
 * to true) and `/api/tags`, and the OpenAI-compatible `/v1/chat/completions` and `/v1/models`.
 * Ollama needs no key; a Bearer key, when sent, still scripts behaviours.
 */
import {
  runChat,
  runModelList,
  type ChatDialect,
  type ErrorDialect,
  type Provider,
} from './engine.ts';
import { asArray, asRecord, asString, bearerToken } from './http.ts';
import { openAIChatDialect, openAIErrors, openAIModelList } from './openai-chat.ts';
import { textOf, type ChatInput, type Reply } from './script.ts';

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
    messages: asArray(b.messages).map((m) => ({
      role: asString(asRecord(m)?.role) ?? '',
      text: textOf(asRecord(m)?.content),
    })),
  };
};

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
    message: { role: 'assistant', content: reply.text },
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
