/**
 * Google's Gemini API at `/gemini/v1beta`: `models/{model}:generateContent` and
 * `:streamGenerateContent` (SSE with `?alt=sse`, else a streamed JSON array); key in
 * `x-goog-api-key` or `?key=`. A googleSearch tool in the request adds grounding sources.
 */
import {
  runChat,
  runModelList,
  type ChatDialect,
  type ErrorDialect,
  type ErrorKind,
  type Provider,
  type SimContext,
} from './engine.ts';
import { asArray, asRecord, headerValue, type Framing } from './http.ts';
import { textOf, type ChatInput, type Reply } from './script.ts';

const statuses: Record<ErrorKind, string> = {
  'missing-key': 'UNAUTHENTICATED',
  'invalid-key': 'UNAUTHENTICATED',
  'rate-limit': 'RESOURCE_EXHAUSTED',
  'server-error': 'INTERNAL',
  'bad-request': 'INVALID_ARGUMENT',
  'not-found': 'NOT_FOUND',
};

const errors: ErrorDialect = {
  messages: {
    'missing-key':
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    'invalid-key': 'API key not valid. Please pass a valid API key.',
    'rate-limit': 'Resource has been exhausted (e.g. check quota) (simulated).',
    'server-error':
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  },
  body: (kind, status, message) => ({
    error: {
      code: status,
      message,
      status: statuses[kind],
      ...(kind === 'invalid-key'
        ? {
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'API_KEY_INVALID',
                domain: 'googleapis.com',
                metadata: { service: 'generativelanguage.googleapis.com' },
              },
            ],
          }
        : {}),
    },
  }),
};

/** Grounding sources as Gemini returns them for the google_search tool. */
export const geminiSources = [
  { uri: 'https://example.com/gemini-sim/source-1', title: 'example.com' },
  { uri: 'https://example.com/gemini-sim/source-2', title: 'example.com' },
];

const searchTools = [
  'googleSearch',
  'google_search',
  'googleSearchRetrieval',
  'google_search_retrieval',
];

const routePattern = /^\/(models|tunedModels)\/([^/:]+):(generateContent|streamGenerateContent)$/;

const parse = (body: unknown, ctx: SimContext): ChatInput | string => {
  const b = asRecord(body);
  const [, collection, model, method] = routePattern.exec(ctx.path) ?? [];
  if (!b || !Array.isArray(b.contents))
    return '* GenerateContentRequest.contents: contents is not specified';
  const system = textOf(asRecord(b.systemInstruction)?.parts);
  return {
    model: collection === 'models' ? (model ?? '') : `${collection}/${model}`,
    stream: method === 'streamGenerateContent',
    includeUsage: true,
    webSearch: asArray(b.tools).some((tool) =>
      searchTools.some((name) => asRecord(tool)?.[name] !== undefined),
    ),
    messages: [
      ...(system ? [{ role: 'system', text: system }] : []),
      ...asArray(b.contents).map((c) => ({
        role: asRecord(c)?.role === 'model' ? 'assistant' : 'user',
        text: textOf(asRecord(c)?.parts),
      })),
    ],
  };
};

const usageMetadata = (reply: Reply, candidates: number) => ({
  promptTokenCount: reply.promptTokens,
  ...(candidates > 0 ? { candidatesTokenCount: candidates } : {}),
  totalTokenCount: reply.promptTokens + candidates,
  promptTokensDetails: [{ modality: 'TEXT', tokenCount: reply.promptTokens }],
});

const groundingMetadata = (reply: Reply) => ({
  webSearchQueries: [reply.userText.slice(0, 100)],
  groundingChunks: geminiSources.map((web) => ({ web })),
  groundingSupports: [
    {
      segment: { startIndex: 0, endIndex: reply.text.length, text: reply.text },
      groundingChunkIndices: geminiSources.map((_, i) => i),
    },
  ],
});

const dialectFor = (framing: Framing): ChatDialect => {
  const response = (reply: Reply, candidate: Record<string, unknown>, candidates: number) => ({
    candidates: [{ ...candidate, index: 0 }],
    usageMetadata: usageMetadata(reply, candidates),
    modelVersion: reply.model,
    responseId: reply.id,
  });
  const content = (text: string) => ({ parts: [{ text }], role: 'model' });
  return {
    label: 'Gemini',
    errors,
    framing,
    // Every field of a Gemini response is optional, so `{"unexpected":true}` would parse.
    badFormat: { candidates: { unexpected: true } },
    parse,
    json: (reply, input) =>
      response(
        reply,
        {
          content: content(reply.text),
          finishReason: 'STOP',
          ...(input.webSearch ? { groundingMetadata: groundingMetadata(reply) } : {}),
        },
        reply.completionTokens,
      ),
    stream: (reply, input) => {
      let sent = 0;
      return {
        start: () => [],
        delta: (text) => [{ data: response(reply, { content: content(text) }, ++sent) }],
        finish: () => [
          {
            data: response(
              reply,
              {
                content: content(''),
                finishReason: 'STOP',
                ...(input.webSearch ? { groundingMetadata: groundingMetadata(reply) } : {}),
              },
              reply.completionTokens,
            ),
          },
        ],
      };
    },
  };
};

const sseDialect = dialectFor('sse');
const arrayDialect = dialectFor('json-array');

const apiKey = (ctx: SimContext) =>
  headerValue(ctx.req, 'x-goog-api-key') ?? (ctx.url.searchParams.get('key') || undefined);

export const geminiModels = [
  ['gemini-2.5-pro', 'Gemini 2.5 Pro'],
  ['gemini-2.5-flash', 'Gemini 2.5 Flash'],
  ['gemini-1.5-pro', 'Gemini 1.5 Pro'],
  ['gemini-1.5-flash', 'Gemini 1.5 Flash'],
  ['gemini-pro', 'Gemini Pro'],
] as const;

export const gemini: Provider = {
  name: 'gemini',
  prefix: '/gemini/v1beta',
  errors,
  routes: [
    {
      method: 'POST',
      pattern: routePattern,
      handle: (ctx, match) => {
        const streamed = match[3] === 'streamGenerateContent';
        const sse = ctx.url.searchParams.get('alt') === 'sse';
        return runChat(ctx, streamed && !sse ? arrayDialect : sseDialect, apiKey(ctx));
      },
    },
    {
      method: 'GET',
      pattern: /^\/models$/,
      handle: (ctx) =>
        runModelList(ctx, errors, apiKey(ctx), (empty) => ({
          models: (empty ? [] : geminiModels).map(([id, displayName]) => ({
            name: `models/${id}`,
            version: '001',
            displayName,
            description: `${displayName} (simulated)`,
            inputTokenLimit: 1_048_576,
            outputTokenLimit: 8192,
            supportedGenerationMethods: ['generateContent', 'countTokens'],
          })),
        })),
    },
  ],
};
