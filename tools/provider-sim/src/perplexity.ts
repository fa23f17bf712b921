/**
 * Perplexity at `/perplexity`: OpenAI-style chat completions plus top-level `citations` (which
 * the AI SDK turns into `sources`) and `search_results`, on the JSON answer and on every chunk.
 */
import { runChat, type ErrorDialect, type ErrorKind, type Provider } from './engine.ts';
import { bearerToken } from './http.ts';
import { openAIChatDialect } from './openai-chat.ts';

const errorTypes: Record<ErrorKind, string> = {
  'missing-key': 'unauthorized',
  'invalid-key': 'invalid_api_key',
  'rate-limit': 'rate_limit_exceeded',
  'server-error': 'internal_server_error',
  'bad-request': 'invalid_message',
  'not-found': 'not_found',
};

const errors: ErrorDialect = {
  messages: {
    'missing-key': 'Missing API key. Provide it in the Authorization header as a Bearer token.',
    'invalid-key': 'Invalid API key provided.',
  },
  body: (kind, status, message) => ({ error: { message, type: errorTypes[kind], code: status } }),
};

/** Perplexity's real wording when user and assistant messages do not alternate. */
export const perplexityAlternatingError =
  'After the (optional) system message(s), user and assistant roles should be alternating.';

export const perplexitySources = [
  {
    title: 'Simulated source one',
    url: 'https://example.com/perplexity-sim/source-1',
    date: '2025-01-01',
  },
  {
    title: 'Simulated source two',
    url: 'https://example.com/perplexity-sim/source-2',
    date: '2025-01-02',
  },
];

const chat = openAIChatDialect({
  label: 'Perplexity',
  errors,
  alternatingError: perplexityAlternatingError,
  streamUsage: 'finish-chunk',
  doneSentinel: false,
  noTools: true,
  usageExtra: () => ({
    search_context_size: 'low',
    citation_tokens: 0,
    num_search_queries: 1,
    cost: { input_tokens_cost: 0, output_tokens_cost: 0, request_cost: 0, total_cost: 0 },
  }),
  topLevel: () => ({
    citations: perplexitySources.map((s) => s.url),
    search_results: perplexitySources,
  }),
});

export const perplexity: Provider = {
  name: 'perplexity',
  prefix: '/perplexity',
  errors,
  routes: [
    {
      method: 'POST',
      pattern: /^\/chat\/completions$/,
      handle: (ctx) => runChat(ctx, chat, bearerToken(ctx.req)),
    },
  ],
};
