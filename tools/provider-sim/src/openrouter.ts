/** OpenRouter at `/openrouter/api/v1`: OpenAI-style chat completions and its own model list shape. */
import { openAIStyleEmbeddings, runEmbeddings } from './embeddings.ts';
import {
  passKeyChecks,
  runChat,
  runModelList,
  type ErrorDialect,
  type Provider,
} from './engine.ts';
import { bearerToken, sendJson } from './http.ts';
import { openAIChatDialect } from './openai-chat.ts';

const errors: ErrorDialect = {
  messages: {
    'missing-key': 'No auth credentials found',
    'invalid-key': 'User not found.',
    'rate-limit': 'Rate limit exceeded (simulated).',
    'server-error': 'Internal Server Error',
  },
  body: (_kind, status, message) => ({ error: { message, code: status } }),
};

const chat = openAIChatDialect({
  label: 'OpenRouter',
  errors,
  streamUsage: 'own-chunk',
  preamble: 'OPENROUTER PROCESSING',
  usageExtra: () => ({
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
    cost: 0,
  }),
  topLevel: () => ({ provider: 'Simulator' }),
});

const embeddings = openAIStyleEmbeddings({
  errors,
  defaultDimensions: 1536,
  dimensionsField: 'dimensions',
  invalidInput: 'Input must be a string or an array of strings.',
  extra: (result) => ({ id: `gen-emb-${result.id}`, provider: 'Simulator' }),
  usageExtra: () => ({ cost: 0 }),
});

export const openRouterModels = [
  {
    id: 'openai/gpt-4o-mini',
    name: 'OpenAI: GPT-4o-mini',
    description: 'Small, fast multimodal model from OpenAI (simulated).',
    context_length: 128_000,
    pricing: { prompt: '0.00000015', completion: '0.0000006' },
  },
  {
    id: 'anthropic/claude-sonnet-4.5',
    name: 'Anthropic: Claude Sonnet 4.5',
    description: 'Balanced Claude model (simulated).',
    context_length: 200_000,
    pricing: { prompt: '0.000003', completion: '0.000015' },
  },
  {
    id: 'google/gemini-2.5-flash',
    name: 'Google: Gemini 2.5 Flash',
    description: 'Fast Gemini model (simulated).',
    context_length: 1_048_576,
    pricing: { prompt: '0.0000003', completion: '0.0000025' },
  },
  {
    id: 'meta-llama/llama-3.3-70b-instruct:free',
    name: 'Meta: Llama 3.3 70B Instruct (free)',
    description: 'Open model served for free (simulated).',
    context_length: 131_072,
    pricing: { prompt: '0', completion: '0' },
  },
];

export const openrouter: Provider = {
  name: 'openrouter',
  prefix: '/openrouter/api/v1',
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
      // OpenRouter lists its models without a key.
      handle: (ctx) =>
        runModelList(
          ctx,
          errors,
          bearerToken(ctx.req),
          (empty) => ({
            data: (empty ? [] : openRouterModels).map((m) => ({
              ...m,
              created: 1_700_000_000,
              architecture: { modality: 'text->text', tokenizer: 'Other', instruct_type: null },
              top_provider: {
                context_length: m.context_length,
                max_completion_tokens: null,
                is_moderated: false,
              },
              per_request_limits: null,
            })),
          }),
          true,
        ),
    },
    {
      method: 'GET',
      pattern: /^\/key$/,
      // OpenRouter's key endpoint: what a key is allowed to spend. The usual way to prove a key.
      handle: async (ctx) => {
        if (!(await passKeyChecks(ctx, errors, bearerToken(ctx.req)))) return;
        sendJson(ctx.res, 200, {
          data: {
            label: 'sk-or-v1-…sim',
            usage: 0,
            limit: null,
            is_free_tier: false,
            rate_limit: { requests: 20, interval: '10s' },
          },
        });
      },
    },
  ],
};
