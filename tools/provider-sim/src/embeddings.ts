/**
 * Deterministic embeddings: a hashed bag of words. Each lower-cased word (and, at half weight, each
 * pair of neighbouring words) adds ±1 to one of D dimensions picked by its hash; the vector is then
 * L2-normalised. Texts that share words point the same way, identical texts give identical vectors,
 * and unrelated texts are close to orthogonal. Also the runner every embeddings endpoint shares.
 */
import {
  BAD_FORMAT_BODY,
  passKeyChecks,
  sendError,
  type ErrorDialect,
  type SimContext,
} from './engine.ts';
import { asArray, asRecord, asString, sendJson, untilAborted } from './http.ts';
import { countWords, readDirectives, readKeyBehaviour } from './script.ts';

export type EmbeddingModelInfo = {
  /** What the model returns when the request names no dimensions. */
  dimensions: number;
  /** The largest dimension count a request may ask for. */
  maxDimensions: number;
  /** The model cannot shorten its vectors (OpenAI's ada-002). */
  fixed?: boolean;
};

/** The real models' sizes, by id without a `models/` or `vendor/` prefix or an Ollama `:tag`. */
export const embeddingModels: Record<string, EmbeddingModelInfo> = {
  'text-embedding-3-small': { dimensions: 1536, maxDimensions: 1536 },
  'text-embedding-3-large': { dimensions: 3072, maxDimensions: 3072 },
  'text-embedding-ada-002': { dimensions: 1536, maxDimensions: 1536, fixed: true },
  'text-embedding-004': { dimensions: 768, maxDimensions: 768 },
  'gemini-embedding-001': { dimensions: 3072, maxDimensions: 3072 },
  'mistral-embed': { dimensions: 1024, maxDimensions: 1024 },
  'codestral-embed': { dimensions: 1536, maxDimensions: 3072 },
  'nomic-embed-text': { dimensions: 768, maxDimensions: 768 },
  'mxbai-embed-large': { dimensions: 1024, maxDimensions: 1024 },
  'all-minilm': { dimensions: 384, maxDimensions: 384 },
};

/** Largest vector the simulator makes for a model it does not know. */
const MAX_UNKNOWN_DIMENSIONS = 4096;

export const embeddingModelInfo = (model: string, fallback: number): EmbeddingModelInfo => {
  const id = model
    .replace(/^models\//, '')
    .replace(/^[^/]+\//, '')
    .replace(/:[^:]*$/, '');
  return embeddingModels[id] ?? { dimensions: fallback, maxDimensions: MAX_UNKNOWN_DIMENSIONS };
};

/** Words that say little about what a text is about count a quarter. */
const stopWords = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were what when where which who why will with'.split(
    ' ',
  ),
);

const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** murmur3's finaliser: spreads the bits of a hash, here to pick each feature's sign. */
const mix = (value: number): number => {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/** The embedding of `text`: `dimensions` float32 values of unit length. */
export const embedText = (text: string, dimensions: number): number[] => {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const weight = (word: string) => (stopWords.has(word) ? 0.25 : 1);
  const features: [string, number][] = words.map((word) => [word, weight(word)]);
  for (let i = 1; i < words.length; i++) {
    const [first, second] = [words[i - 1] ?? '', words[i] ?? ''];
    features.push([`${first} ${second}`, 0.5 * Math.min(weight(first), weight(second))]);
  }
  // A text without words still gets a direction of its own.
  if (features.length === 0) features.push([text.trim().toLowerCase(), 1]);

  const vector = new Float64Array(dimensions);
  for (const [feature, w] of features) {
    const hash = fnv1a(feature);
    vector[hash % dimensions]! += (mix(hash) & 1 ? 1 : -1) * w;
  }
  let norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
  if (norm === 0) {
    vector[0] = 1;
    norm = 1;
  }
  return Array.from(vector, (x) => Math.fround(x / norm));
};

/** A vector as OpenAI's `encoding_format: "base64"` sends it: little-endian float32 bytes. */
export const vectorToBase64 = (vector: number[]): string => {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => bytes.writeFloatLE(x, i * 4));
  return bytes.toString('base64');
};

export type EmbeddingInput = { text: string; dimensions?: number };

/** An embeddings request reduced to what the simulator needs, whatever the provider. */
export type EmbeddingRequest = {
  model: string;
  inputs: EmbeddingInput[];
  base64?: boolean;
};

export type Embedding = { index: number; vector: number[]; tokens: number };

export type EmbeddingResult = {
  id: string;
  model: string;
  embeddings: Embedding[];
  /** Words of all inputs, the simulator's stand-in for tokens. */
  tokens: number;
  base64: boolean;
};

/** How one provider's embeddings endpoint reads a request and writes an answer. */
export type EmbeddingDialect = {
  errors: ErrorDialect;
  keyOptional?: boolean;
  /** The dimensions of a model the simulator does not know. */
  defaultDimensions: number;
  /** Most inputs one request may carry, and the 400 body for more. */
  maxInputs?: { limit: number; body: unknown };
  /** Parses the request body, or returns the message of a 400. */
  parse(body: unknown, ctx: SimContext): EmbeddingRequest | string;
  json(result: EmbeddingResult): unknown;
};

/** Answers an embeddings call: key checks, body, limits, then the vectors in the provider's shape. */
export const runEmbeddings = async (
  ctx: SimContext,
  dialect: EmbeddingDialect,
  key: string | undefined,
): Promise<void> => {
  if (!(await passKeyChecks(ctx, dialect.errors, key, dialect.keyOptional))) return;
  const badRequest = (message: string) => sendError(ctx, dialect.errors, 'bad-request', message);
  if (!ctx.bodyIsJson) return badRequest('We could not parse the JSON body of your request.');
  const request = dialect.parse(ctx.body, ctx);
  if (typeof request === 'string') return badRequest(request);
  if (readKeyBehaviour(key).badFormat) return sendJson(ctx.res, 200, BAD_FORMAT_BODY);
  if (dialect.maxInputs && request.inputs.length > dialect.maxInputs.limit) {
    return sendJson(ctx.res, 400, dialect.maxInputs.body);
  }

  // An input with `[sim:hang]`: no answer at all until the client gives up.
  if (request.inputs.some((input) => readDirectives(input.text).hang)) {
    return untilAborted(ctx.signal);
  }

  const info = embeddingModelInfo(request.model, dialect.defaultDimensions);
  const embeddings: Embedding[] = [];
  for (const [index, input] of request.inputs.entries()) {
    const dimensions = input.dimensions ?? info.dimensions;
    if (input.dimensions !== undefined && info.fixed) {
      return badRequest('This model does not support specifying dimensions.');
    }
    if (dimensions > info.maxDimensions) {
      return badRequest(
        `${request.model} makes vectors of at most ${info.maxDimensions} dimensions; ${dimensions} were requested.`,
      );
    }
    embeddings.push({
      index,
      vector: embedText(input.text, dimensions),
      tokens: countWords(input.text),
    });
  }
  sendJson(
    ctx.res,
    200,
    dialect.json({
      id: `sim${String(ctx.record.id).padStart(6, '0')}`,
      model: request.model,
      embeddings,
      tokens: embeddings.reduce((n, e) => n + e.tokens, 0),
      base64: request.base64 === true,
    }),
  );
};

/** A dimension count from a request: a positive integer, absent, or the message of a 400. */
export const readDimensions = (value: unknown, field: string): number | undefined | string => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  return `Invalid value for '${field}': expected an integer of at least 1.`;
};

export type OpenAIStyleEmbeddingOptions = {
  errors: ErrorDialect;
  keyOptional?: boolean;
  defaultDimensions: number;
  maxInputs?: EmbeddingDialect['maxInputs'];
  /** `dimensions` (OpenAI and the APIs that copy it) or `output_dimension` (Mistral). */
  dimensionsField: 'dimensions' | 'output_dimension';
  /** The 400 message for an input that is not a string, a list of strings or token arrays. */
  invalidInput: string;
  /** OpenAI rejects empty strings and empty lists. */
  rejectEmpty?: boolean;
  /** Fields added at the top level of the answer. */
  extra?(result: EmbeddingResult): Record<string, unknown>;
  usageExtra?(result: EmbeddingResult): Record<string, unknown>;
};

const isTokenArray = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length > 0 && value.every((n) => Number.isInteger(n));

/** `POST …/embeddings` as OpenAI speaks it, and Mistral, OpenRouter and Ollama's `/v1` copy. */
export const openAIStyleEmbeddings = (options: OpenAIStyleEmbeddingOptions): EmbeddingDialect => ({
  errors: options.errors,
  keyOptional: options.keyOptional,
  defaultDimensions: options.defaultDimensions,
  maxInputs: options.maxInputs,
  parse: (body) => {
    const b = asRecord(body);
    const model = asString(b?.model);
    if (!b || !model) return 'you must provide a model parameter';
    const dimensions = readDimensions(b[options.dimensionsField], options.dimensionsField);
    if (typeof dimensions === 'string') return dimensions;
    const format = b.encoding_format ?? 'float';
    if (format !== 'float' && format !== 'base64') {
      return `Invalid value for 'encoding_format': expected 'float' or 'base64', got ${JSON.stringify(format)}.`;
    }
    // A string, a list of strings, one token array or a list of token arrays (as token ids).
    let texts: string[] | undefined;
    if (typeof b.input === 'string') texts = [b.input];
    else if (isTokenArray(b.input)) texts = [b.input.join(' ')];
    else if (Array.isArray(b.input)) {
      const items = asArray(b.input);
      if (items.every((item) => typeof item === 'string')) texts = items as string[];
      else if (items.every(isTokenArray)) texts = items.map((ids) => ids.join(' '));
    }
    if (!texts) return options.invalidInput;
    if (options.rejectEmpty && (texts.length === 0 || texts.some((t) => t === ''))) {
      return options.invalidInput;
    }
    return {
      model,
      inputs: texts.map((text) => ({ text, dimensions })),
      base64: format === 'base64',
    };
  },
  json: (result) => ({
    ...options.extra?.(result),
    object: 'list',
    data: result.embeddings.map((e) => ({
      object: 'embedding',
      index: e.index,
      embedding: result.base64 ? vectorToBase64(e.vector) : e.vector,
    })),
    model: result.model,
    usage: {
      prompt_tokens: result.tokens,
      total_tokens: result.tokens,
      ...options.usageExtra?.(result),
    },
  }),
});
