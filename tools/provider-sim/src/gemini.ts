/**
 * Google's Gemini API at `/gemini/v1beta`: `models/{model}:generateContent` and
 * `:streamGenerateContent` (SSE with `?alt=sse`, else a streamed JSON array); key in
 * `x-goog-api-key` or `?key=`. A googleSearch tool in the request adds grounding sources.
 */
import {
  readDimensions,
  runEmbeddings,
  type EmbeddingDialect,
  type EmbeddingInput,
} from './embeddings.ts';
import {
  runChat,
  runModelList,
  type ChatDialect,
  type ErrorDialect,
  type ErrorKind,
  type Provider,
  type SimContext,
} from './engine.ts';
import { asArray, asRecord, asString, headerValue, type Framing } from './http.ts';
import {
  resultText,
  splitToolResults,
  textOf,
  type ChatInput,
  type ChatMessage,
  type Reply,
  type ToolCall,
  type ToolDefinition,
} from './script.ts';

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

const partsOf = (content: unknown, key: string) =>
  asArray(asRecord(content)?.parts).flatMap((part) => {
    const value = asRecord(asRecord(part)?.[key]);
    return value ? [value] : [];
  });

/** A Gemini content as the simulator sees it: `functionCall` and `functionResponse` parts. */
const parseContent = (content: unknown): ChatMessage[] => {
  const role = asRecord(content)?.role === 'model' ? 'assistant' : 'user';
  const text = textOf(asRecord(content)?.parts);
  const toolCalls = partsOf(content, 'functionCall').flatMap((call) => {
    const name = asString(call.name);
    return name
      ? [{ id: asString(call.id), name, arguments: JSON.stringify(call.args ?? {}) }]
      : [];
  });
  const toolResults = partsOf(content, 'functionResponse').map((result) => {
    const response = asRecord(result.response);
    const value = response && 'content' in response ? response.content : (response ?? '');
    return { id: asString(result.id), name: asString(result.name), output: resultText(value) };
  });
  return splitToolResults(role, text, toolCalls, toolResults);
};

const parseTools = (tools: unknown): ToolDefinition[] =>
  asArray(tools).flatMap((tool) => {
    const t = asRecord(tool);
    return asArray(t?.functionDeclarations ?? t?.function_declarations).flatMap((declaration) => {
      const d = asRecord(declaration);
      const name = asString(d?.name);
      if (!d || !name) return [];
      const parameters = d.parametersJsonSchema ?? d.parameters;
      return [{ name, description: asString(d.description), parameters }];
    });
  });

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
    tools: parseTools(b.tools),
    toolsDisabled: asRecord(asRecord(b.toolConfig)?.functionCallingConfig)?.mode === 'NONE',
    messages: [
      ...(system ? [{ role: 'system', text: system }] : []),
      ...asArray(b.contents).flatMap(parseContent),
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
  const functionCall = (call: ToolCall) => ({
    functionCall: { name: call.name, args: call.input },
  });
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
          content:
            reply.toolCalls.length > 0
              ? { parts: reply.toolCalls.map(functionCall), role: 'model' }
              : content(reply.text),
          // Gemini ends a turn of function calls with STOP too.
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
        // Gemini streams each function call whole, in a chunk of its own.
        toolCall: (call) => [
          {
            data: response(
              reply,
              { content: { parts: [functionCall(call)], role: 'model' } },
              reply.completionTokens,
            ),
          },
        ],
        finish: () => [
          {
            data: response(
              reply,
              {
                ...(reply.toolCalls.length > 0 ? {} : { content: content('') }),
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

const embedPattern = /^\/models\/([^/:]+):(embedContent|batchEmbedContents)$/;

/** One `EmbedContentRequest`: `{content: {parts: [{text}]}, outputDimensionality?}`. */
const parseEmbedRequest = (request: unknown, where: string): EmbeddingInput | string => {
  const r = asRecord(request);
  const parts = asRecord(r?.content)?.parts;
  if (!r || !Array.isArray(parts)) return `* ${where}.content: contents is not specified`;
  const dimensions = readDimensions(r.outputDimensionality, `${where}.outputDimensionality`);
  if (typeof dimensions === 'string') return dimensions;
  return { text: textOf(parts), dimensions };
};

/** `:embedContent` answers `{embedding: {values}}`; `:batchEmbedContents` `{embeddings: [{values}]}`. */
const embeddingsDialect = (batch: boolean): EmbeddingDialect => ({
  errors,
  defaultDimensions: 768,
  maxInputs: batch
    ? {
        limit: 100,
        body: errors.body(
          'bad-request',
          400,
          '* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch',
        ),
      }
    : undefined,
  parse: (body, ctx) => {
    const model = embedPattern.exec(ctx.path)?.[1] ?? '';
    const b = asRecord(body);
    if (!batch) {
      const input = parseEmbedRequest(b, 'EmbedContentRequest');
      return typeof input === 'string' ? input : { model, inputs: [input] };
    }
    if (!b || !Array.isArray(b.requests) || b.requests.length === 0) {
      return '* BatchEmbedContentsRequest.requests: requests is not specified';
    }
    const inputs: EmbeddingInput[] = [];
    for (const [i, request] of b.requests.entries()) {
      const input = parseEmbedRequest(request, `BatchEmbedContentsRequest.requests[${i}]`);
      if (typeof input === 'string') return input;
      inputs.push(input);
    }
    return { model, inputs };
  },
  json: (result) =>
    batch
      ? { embeddings: result.embeddings.map((e) => ({ values: e.vector })) }
      : { embedding: { values: result.embeddings[0]?.vector ?? [] } },
});

const embedContent = embeddingsDialect(false);
const batchEmbedContents = embeddingsDialect(true);

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
      method: 'POST',
      pattern: embedPattern,
      handle: (ctx, match) =>
        runEmbeddings(
          ctx,
          match[2] === 'batchEmbedContents' ? batchEmbedContents : embedContent,
          apiKey(ctx),
        ),
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
