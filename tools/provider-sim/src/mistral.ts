/** Mistral at `/mistral/v1`: OpenAI-style chat completions with usage on the last chunk. */
import { openAIStyleEmbeddings, runEmbeddings } from './embeddings.ts';
import { runChat, runModelList, type ErrorDialect, type Provider } from './engine.ts';
import { bearerToken } from './http.ts';
import { openAIChatDialect } from './openai-chat.ts';

/** Mistral answers 401 with `{message, request_id}` and other errors with `{object:'error', …}`. */
const errors: ErrorDialect = {
  messages: {
    'missing-key': 'Unauthorized',
    'invalid-key': 'Unauthorized',
    'rate-limit': 'Requests rate limit exceeded (simulated)',
    'server-error': 'Internal server error (simulated)',
  },
  body: (kind, _status, message) =>
    kind === 'missing-key' || kind === 'invalid-key'
      ? { message, request_id: 'sim' }
      : {
          object: 'error',
          message,
          type:
            kind === 'rate-limit'
              ? 'rate_limited'
              : kind === 'server-error'
                ? 'internal_server_error'
                : 'invalid_request_error',
          param: null,
          code: null,
        },
};

const chat = openAIChatDialect({
  label: 'Mistral',
  errors,
  streamUsage: 'finish-chunk',
  // Mistral sends each tool call whole, with a nine-character id it insists on getting back.
  toolCallStreaming: 'whole',
  toolCallId: (call) => call.shortId,
  toolCallContent: '',
});

const embeddings = openAIStyleEmbeddings({
  errors,
  defaultDimensions: 1024,
  maxInputs: {
    limit: 512,
    body: {
      object: 'error',
      message: 'Too many inputs in request, split into more batches.',
      type: 'invalid_request_prompt',
      param: null,
      code: '3210',
    },
  },
  dimensionsField: 'output_dimension',
  invalidInput: 'input: Input should be a valid string or a list of strings',
  extra: (result) => ({ id: `embd-${result.id}` }),
  usageExtra: () => ({ completion_tokens: 0 }),
});

export const mistralModels = [
  'mistral-large-latest',
  'mistral-medium-latest',
  'mistral-small-latest',
  'codestral-latest',
] as const;

export const mistral: Provider = {
  name: 'mistral',
  prefix: '/mistral/v1',
  errors,
  routes: [
    {
      method: 'POST',
      pattern: /^\/chat\/completions$/,
      handle: (ctx) => runChat(ctx, chat, bearerToken(ctx.req)),
    },
    {
      method: 'POST',
      pattern: /^\/embeddings$/,
      handle: (ctx) => runEmbeddings(ctx, embeddings, bearerToken(ctx.req)),
    },
    {
      method: 'GET',
      pattern: /^\/models$/,
      handle: (ctx) =>
        runModelList(ctx, errors, bearerToken(ctx.req), (empty) => ({
          object: 'list',
          data: (empty ? [] : mistralModels).map((id) => ({
            id,
            object: 'model',
            created: 1_700_000_000,
            owned_by: 'mistralai',
            capabilities: { completion_chat: true, function_calling: true, vision: false },
            max_context_length: 131_072,
          })),
        })),
    },
  ],
};
