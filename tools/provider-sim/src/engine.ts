/**
 * What every provider shares: the route and context types, the key checks, and the chat runner
 * that plays a scripted reply in the provider's own dialect.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FrameWriter, sendJson, sleep, untilAborted, type Frame, type Framing } from './http.ts';
import {
  SLOW_KEY_DELAY_MS,
  buildReply,
  lastUserText,
  readDirectives,
  readKeyBehaviour,
  type ChatInput,
  type Reply,
  type ToolCall,
  type ToolDefinition,
} from './script.ts';

export type ProviderName =
  | 'openai'
  | 'anthropic'
  | 'gemini'
  | 'deepseek'
  | 'mistral'
  | 'perplexity'
  | 'openrouter'
  | 'ollama';

export type RecordedRequest = {
  id: number;
  provider: ProviderName | null;
  method: string;
  /** Path and query as received, with a `?key=` masked. */
  path: string;
  /** Lower-cased names; Authorization, x-api-key and x-goog-api-key masked. */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, or null when empty. */
  body: unknown;
  /**
   * The function tools a chat request offered the model, in one shape for every provider (empty
   * when it offered none, or for Perplexity, which has no tools). Not set on other requests.
   */
  tools?: ToolDefinition[];
  receivedAt: string;
  status?: number;
  /** `client-disconnected` when the client went away before the answer ended. */
  outcome: 'pending' | 'completed' | 'client-disconnected' | 'dropped-by-sim';
};

export type SimContext = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The path after the provider's prefix, e.g. `/chat/completions`. */
  path: string;
  body: unknown;
  /** False when a body was sent but is not JSON. */
  bodyIsJson: boolean;
  record: RecordedRequest;
  /** Aborts when the client disconnects or the simulator closes. */
  signal: AbortSignal;
  /** Pause between streamed chunks unless `[sim:delay-ms N]` says otherwise. */
  chunkDelayMs: number;
  /** The 429s `[sim:429-times N]` has sent so far, per last user text (this simulator's). */
  rateLimitCounts: Map<string, number>;
  /** Closes the connection without an answer, as a crashed upstream would. */
  drop(): void;
};

export type Route = {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle(ctx: SimContext, match: RegExpExecArray): Promise<void> | void;
};

export type Provider = {
  name: ProviderName;
  /** Path prefix on the simulator; the provider's base URL is the simulator URL plus this. */
  prefix: string;
  routes: Route[];
  errors: ErrorDialect;
};

export type ErrorKind =
  'missing-key' | 'invalid-key' | 'rate-limit' | 'server-error' | 'bad-request' | 'not-found';

const statusOf: Record<ErrorKind, number> = {
  'missing-key': 401,
  'invalid-key': 401,
  'rate-limit': 429,
  'server-error': 500,
  'bad-request': 400,
  'not-found': 404,
};

const defaultMessages: Record<ErrorKind, string> = {
  'missing-key': 'No API key provided.',
  'invalid-key': 'Invalid API key.',
  'rate-limit': 'Rate limit exceeded (simulated). Please retry after 1 second.',
  'server-error': 'The server had an error while processing your request (simulated).',
  'bad-request': 'Invalid request.',
  'not-found': 'Not found.',
};

/** How a provider writes an error body. */
export type ErrorDialect = {
  messages?: Partial<Record<ErrorKind, string>>;
  body(kind: ErrorKind, status: number, message: string): unknown;
};

export const sendError = (
  ctx: SimContext,
  errors: ErrorDialect,
  kind: ErrorKind,
  message?: string,
): void => {
  const status = statusOf[kind];
  const text = message ?? errors.messages?.[kind] ?? defaultMessages[kind];
  const headers: Record<string, string> = kind === 'rate-limit' ? { 'retry-after': '1' } : {};
  sendJson(ctx.res, status, errors.body(kind, status, text), headers);
};

/**
 * The checks every authenticated call makes, in the order a real API does: the key, then what the
 * key scripts (slow, invalid, ratelimit, error500). Returns false when it has answered.
 */
export const passKeyChecks = async (
  ctx: SimContext,
  errors: ErrorDialect,
  key: string | undefined,
  keyOptional = false,
): Promise<boolean> => {
  if (key === undefined && !keyOptional) {
    sendError(ctx, errors, 'missing-key');
    return false;
  }
  const behaviour = readKeyBehaviour(key);
  if (behaviour.slow && !(await sleep(SLOW_KEY_DELAY_MS, ctx.signal))) return false;
  if (behaviour.invalid) sendError(ctx, errors, 'invalid-key');
  else if (behaviour.rateLimit) sendError(ctx, errors, 'rate-limit');
  else if (behaviour.error500) sendError(ctx, errors, 'server-error');
  else return true;
  return false;
};

const DROP_GRACE_MS = 50;

export const BAD_FORMAT_BODY = { unexpected: true };

/** A model list endpoint: key checks, then `list(empty)` in the provider's shape. */
export const runModelList = async (
  ctx: SimContext,
  errors: ErrorDialect,
  key: string | undefined,
  list: (empty: boolean) => unknown,
  keyOptional = false,
): Promise<void> => {
  if (!(await passKeyChecks(ctx, errors, key, keyOptional))) return;
  const behaviour = readKeyBehaviour(key);
  sendJson(ctx.res, 200, behaviour.badFormat ? BAD_FORMAT_BODY : list(behaviour.emptyModels));
};

/** Per-request writer of a streamed reply; it may keep state (sequence numbers, block indexes). */
export type ReplyStream = {
  start(): Frame[];
  delta(text: string): Frame[];
  /** Every frame of one tool call: its start, its argument pieces and its end. */
  toolCall(call: ToolCall): Frame[];
  finish(): Frame[];
};

/** How one provider speaks a chat reply. */
export type ChatDialect = {
  /** Shown in the default reply: `Hello from the {label} simulator`. */
  label: string;
  errors: ErrorDialect;
  framing: Framing;
  keyOptional?: boolean;
  /** The 400 that `[sim:alternating]` triggers; only providers that enforce alternation set it. */
  alternatingError?: string;
  /** A body the client cannot parse; `{"unexpected":true}` unless that happens to be valid. */
  badFormat?: unknown;
  /** Parses the request body, or returns the message of a 400. */
  parse(body: unknown, ctx: SimContext): ChatInput | string;
  json(reply: Reply, input: ChatInput): unknown;
  stream(reply: Reply, input: ChatInput): ReplyStream;
};

/** Answers a chat call: key checks, body, directives, then the reply as JSON or as a stream. */
export const runChat = async (
  ctx: SimContext,
  dialect: ChatDialect,
  key: string | undefined,
): Promise<void> => {
  if (!(await passKeyChecks(ctx, dialect.errors, key, dialect.keyOptional))) return;
  if (!ctx.bodyIsJson) {
    sendError(
      ctx,
      dialect.errors,
      'bad-request',
      'We could not parse the JSON body of your request.',
    );
    return;
  }
  const input = dialect.parse(ctx.body, ctx);
  if (typeof input === 'string') {
    sendError(ctx, dialect.errors, 'bad-request', input);
    return;
  }
  ctx.record.tools = input.tools;
  const badFormat = dialect.badFormat ?? BAD_FORMAT_BODY;
  if (readKeyBehaviour(key).badFormat) {
    if (!input.stream) return sendJson(ctx.res, 200, badFormat);
    const writer = new FrameWriter(ctx.res, dialect.framing);
    writer.open();
    writer.write([{ data: badFormat }]);
    return writer.end();
  }

  const userText = lastUserText(input);
  const directives = readDirectives(userText);
  if (directives.status === 429) return sendError(ctx, dialect.errors, 'rate-limit');
  if (directives.rateLimitTimes !== undefined) {
    const sent = ctx.rateLimitCounts.get(userText) ?? 0;
    if (sent < directives.rateLimitTimes) {
      ctx.rateLimitCounts.set(userText, sent + 1);
      return sendError(ctx, dialect.errors, 'rate-limit');
    }
  }
  if (directives.status === 500) return sendError(ctx, dialect.errors, 'server-error');
  const alternating = directives.alternating || readKeyBehaviour(key).alternating;
  if (alternating && dialect.alternatingError !== undefined) {
    return sendError(ctx, dialect.errors, 'bad-request', dialect.alternatingError);
  }

  const reply = buildReply(input, dialect.label, ctx.record.id);
  const delayMs = directives.delayMs ?? ctx.chunkDelayMs;
  // What a stream sends one at a time: the words of a text, or whole tool calls.
  const units = reply.toolCalls.length > 0 ? reply.toolCalls.length : reply.chunks.length;

  if (!input.stream) {
    if (directives.hang) return untilAborted(ctx.signal);
    if (!(await sleep(delayMs * (units - 1), ctx.signal))) return;
    if (directives.failAfter !== undefined) return ctx.drop();
    return sendJson(ctx.res, 200, dialect.json(reply, input));
  }

  const writer = new FrameWriter(ctx.res, dialect.framing);
  const frames = dialect.stream(reply, input);
  writer.open();
  writer.write(frames.start());
  if (directives.hang && directives.hangAfter === 0) return untilAborted(ctx.signal);
  for (let i = 0; i < units; i++) {
    if (i === directives.failAfter) break;
    if (i > 0 && !(await sleep(delayMs, ctx.signal))) return;
    const call = reply.toolCalls[i];
    writer.write(call ? frames.toolCall(call) : frames.delta(reply.chunks[i] ?? ''));
    if (directives.hang && i + 1 >= directives.hangAfter) return untilAborted(ctx.signal);
  }
  if (directives.failAfter !== undefined) {
    // Let the client read what was sent: a stream that errors drops the chunks still queued in it.
    await writer.flushed();
    if (await sleep(DROP_GRACE_MS, ctx.signal)) ctx.drop();
    return;
  }
  writer.write(frames.finish());
  writer.end();
};
