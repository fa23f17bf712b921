/** The scripted behaviours: what an API key or a `[sim:…]` directive asks the simulator to do. */

export type KeyBehaviour = {
  invalid: boolean;
  rateLimit: boolean;
  error500: boolean;
  slow: boolean;
  emptyModels: boolean;
  badFormat: boolean;
  /** Providers that enforce alternating roles answer their 400 about it, as for `[sim:alternating]`. */
  alternating: boolean;
};

export const SLOW_KEY_DELAY_MS = 20_000;

export const readKeyBehaviour = (key: string | undefined): KeyBehaviour => {
  const k = (key ?? '').toLowerCase();
  return {
    invalid: k.includes('invalid'),
    rateLimit: k.includes('ratelimit'),
    error500: k.includes('error500'),
    slow: k.includes('slow'),
    emptyModels: k.includes('empty-models'),
    badFormat: k.includes('badformat'),
    alternating: k.includes('alternating'),
  };
};

export type Directives = {
  status?: 429 | 500;
  /** `[sim:429-times N]`: the first N requests with this same last user text get a 429. */
  rateLimitTimes?: number;
  failAfter?: number;
  tokens?: number;
  delayMs?: number;
  hang: boolean;
  /** Units streamed before a hang holds the stream open: `[sim:hang N]`, 1 by default. */
  hangAfter: number;
  alternating: boolean;
};

const directivePattern = /\[sim:([a-z0-9-]+)(?:\s+(\d+))?\]/gi;

export const readDirectives = (text: string): Directives => {
  const out: Directives = { hang: false, hangAfter: 1, alternating: false };
  for (const match of text.matchAll(directivePattern)) {
    const name = (match[1] ?? '').toLowerCase();
    const n = match[2] === undefined ? undefined : Number(match[2]);
    if (name === '429') out.status = 429;
    else if (name === '500') out.status = 500;
    else if (name === 'hang') {
      out.hang = true;
      out.hangAfter = n ?? 1;
    } else if (name === 'alternating') out.alternating = true;
    else if (name === '429-times' && n !== undefined) out.rateLimitTimes = n;
    else if (name === 'fail-after' && n !== undefined) out.failAfter = n;
    else if (name === 'tokens' && n !== undefined) out.tokens = n;
    else if (name === 'delay-ms' && n !== undefined) out.delayMs = n;
  }
  return out;
};

/** A function tool the request offers the model, in one shape whatever the provider. */
export type ToolDefinition = {
  name: string;
  description?: string;
  /** The JSON Schema of the arguments, as sent. */
  parameters?: unknown;
};

/** One message of a chat request, reduced to what the simulator needs. */
export type ChatMessage = {
  /** `system`, `user`, `assistant`, or `tool` for a message that carries tool results. */
  role: string;
  text: string;
  /** The tool calls of an assistant message. */
  toolCalls?: { id?: string; name: string; arguments?: string }[];
  /** The results of a `tool` message; `name` when the wire format carries it. */
  toolResults?: { id?: string; name?: string; output: string }[];
};

/** A chat request reduced to what the simulator needs, whatever the provider's wire format. */
export type ChatInput = {
  model: string;
  stream: boolean;
  messages: ChatMessage[];
  /** OpenAI's `stream_options.include_usage`. */
  includeUsage: boolean;
  /** The request asked for web search (Gemini's googleSearch tool). */
  webSearch: boolean;
  /** The function tools offered; empty when none (or when the provider has no tools). */
  tools: ToolDefinition[];
  /** The request forbids tool calls (`tool_choice: "none"` or its equivalent). */
  toolsDisabled?: boolean;
};

/** A tool call the simulator makes; providers format `id` their own way. */
export type ToolCall = {
  /** Position in the assistant turn, from 0. */
  index: number;
  /** Unique per request and call, e.g. `sim000042c0`. */
  id: string;
  /** Nine letters and digits, for APIs that want Mistral's short ids. */
  shortId: string;
  name: string;
  input: Record<string, unknown>;
  /** `input` as a JSON string, as OpenAI-style APIs send arguments. */
  arguments: string;
};

export type Reply = {
  /** Unique per request, e.g. `sim000042`; providers add their own prefix. */
  id: string;
  created: number;
  model: string;
  text: string;
  /** The text split word by word; joined they give `text` exactly. Empty for tool calls. */
  chunks: string[];
  /** Tool calls instead of text, when a `[sim:tool …]` marker asks for them. */
  toolCalls: ToolCall[];
  promptTokens: number;
  completionTokens: number;
  userText: string;
};

export const MAX_ECHO_CHARS = 200;

export const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

export const lastUserText = (input: ChatInput): string =>
  input.messages.findLast((m) => m.role === 'user')?.text ?? '';

export type ToolMarker = {
  /** 1 for `[sim:tool …]` (the first model turn), 2 for `[sim:tool2 …]` (after the first results). */
  turn: 1 | 2;
  name: string;
  input: Record<string, unknown>;
};

const markerStart = /\[sim:(tool2?)\s+([^\s\]{}]+)/gi;

/** The end of the JSON object that opens at `text[start]`, or -1 when it never closes. */
const jsonObjectEnd = (text: string, start: number): number => {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
  }
  return -1;
};

/**
 * The `[sim:tool NAME {json}]` and `[sim:tool2 NAME {json}]` markers of a text, in order. The JSON
 * object may be left out (`[sim:tool clock]` calls with `{}`); a marker whose JSON does not parse
 * as an object is skipped.
 */
export const readToolMarkers = (text: string): ToolMarker[] => {
  const out: ToolMarker[] = [];
  for (const match of text.matchAll(markerStart)) {
    let at = match.index + match[0].length;
    while (/\s/.test(text[at] ?? '')) at++;
    let input: unknown = {};
    if (text[at] === '{') {
      const end = jsonObjectEnd(text, at);
      if (end < 0) continue;
      try {
        input = JSON.parse(text.slice(at, end));
      } catch {
        continue;
      }
      at = end;
      while (/\s/.test(text[at] ?? '')) at++;
    }
    if (text[at] !== ']' || typeof input !== 'object' || input === null || Array.isArray(input)) {
      continue;
    }
    out.push({
      turn: match[1]?.toLowerCase() === 'tool2' ? 2 : 1,
      name: match[2] ?? '',
      input: input as Record<string, unknown>,
    });
  }
  return out;
};

const jsonMarkerStart = /\[sim:json\s*(?=\{)/gi;

/**
 * The JSON object of the last `[sim:json {…}]` marker of a text, exactly as written, or null when
 * there is none (a marker whose JSON does not parse as an object is skipped).
 */
export const readJsonReply = (text: string): string | null => {
  let reply: string | null = null;
  for (const match of text.matchAll(jsonMarkerStart)) {
    const at = match.index + match[0].length;
    const end = jsonObjectEnd(text, at);
    if (end < 0) continue;
    let close = end;
    while (/\s/.test(text[close] ?? '')) close++;
    if (text[close] !== ']') continue;
    const json = text.slice(at, end);
    try {
      const value: unknown = JSON.parse(json);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) reply = json;
    } catch {
      // not JSON: not a marker
    }
  }
  return reply;
};

const cut = (text: string) =>
  text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text;

const splitWords = (text: string) =>
  text.split(' ').map((word, i) => (i === 0 ? word : ` ${word}`));

/**
 * Where the conversation stands since the last user message: how many rounds of tool results came
 * back, and the results of the last round when the conversation ends with them.
 */
const toolProgress = (messages: ChatMessage[]) => {
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const since = messages.slice(lastUser + 1);
  let rounds = 0;
  for (const [i, m] of since.entries()) {
    if (m.role === 'tool' && since[i - 1]?.role !== 'tool') rounds++;
  }
  const trailing: ChatMessage[] = [];
  for (let i = messages.length - 1; i > lastUser && messages[i]?.role === 'tool'; i--) {
    trailing.unshift(messages[i]!);
  }
  // Results name their tool in some formats; in others only the id of the call says which.
  const callNames = new Map(
    since.flatMap((m) => m.toolCalls ?? []).flatMap((c) => (c.id ? [[c.id, c.name] as const] : [])),
  );
  const results = trailing.flatMap((m) =>
    (m.toolResults ?? []).map((r) => ({
      name: r.name ?? (r.id === undefined ? undefined : callNames.get(r.id)) ?? 'unknown',
      output: r.output,
    })),
  );
  return { rounds, results };
};

export const buildReply = (input: ChatInput, label: string, seq: number): Reply => {
  const userText = lastUserText(input);
  const id = `sim${String(seq).padStart(6, '0')}`;
  const { rounds, results } = toolProgress(input.messages);
  const offered = new Set(input.toolsDisabled ? [] : input.tools.map((t) => t.name));
  const toolCalls: ToolCall[] = readToolMarkers(userText)
    .filter((marker) => marker.turn === rounds + 1 && offered.has(marker.name))
    .map((marker, index) => ({
      index,
      id: `${id}c${index}`,
      shortId: (seq * 64 + index).toString(36).padStart(9, '0').slice(-9),
      name: marker.name,
      input: marker.input,
      arguments: JSON.stringify(marker.input),
    }));

  const { tokens } = readDirectives(userText);
  const json = readJsonReply(userText);
  // A turn of tool calls has no text; after tool results the reply quotes them.
  let chunks: string[] = [];
  if (toolCalls.length === 0 && results.length > 0) {
    chunks = splitWords(results.map((r) => `Tool ${r.name} returned: ${cut(r.output)}.`).join(' '));
  } else if (toolCalls.length === 0 && json !== null) {
    chunks = splitWords(json);
  } else if (toolCalls.length === 0 && tokens !== undefined) {
    chunks = Array.from({ length: tokens }, (_, i) => `${i === 0 ? '' : ' '}tok${i + 1}`);
  } else if (toolCalls.length === 0) {
    chunks = splitWords(
      `Hello from the ${label} simulator (${input.model}). You said: "${cut(userText)}"`,
    );
  }
  const promptWords = input.messages.reduce(
    (n, m) =>
      n +
      countWords(m.text) +
      (m.toolCalls ?? []).reduce((k, c) => k + countWords(`${c.name} ${c.arguments ?? ''}`), 0),
    0,
  );
  return {
    id,
    created: Math.floor(Date.now() / 1000),
    model: input.model,
    text: chunks.join(''),
    chunks,
    toolCalls,
    promptTokens: Math.max(1, promptWords),
    completionTokens:
      toolCalls.length > 0
        ? toolCalls.reduce((n, c) => n + countWords(`${c.name} ${c.arguments}`), 0)
        : chunks.length,
    userText,
  };
};

/**
 * A message of APIs that put tool results in a user message (Anthropic, Gemini): the results become
 * a `tool` message, followed by the user's own text if it has any (the AI SDK merges tool results
 * and the next user message into one).
 */
export const splitToolResults = (
  role: string,
  text: string,
  toolCalls: NonNullable<ChatMessage['toolCalls']>,
  toolResults: NonNullable<ChatMessage['toolResults']>,
): ChatMessage[] => {
  if (toolResults.length === 0)
    return [{ role, text, ...(toolCalls.length > 0 ? { toolCalls } : {}) }];
  const results = { role: 'tool', text: toolResults.map((r) => r.output).join(' '), toolResults };
  return text ? [results, { role, text }] : [results];
};

/** Splits a string into pieces of at most `size` characters, as APIs stream tool arguments. */
export const pieces = (text: string, size = 8): string[] => {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};

/** A tool result as text: strings as they are, anything else as JSON. */
export const resultText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

/** Text of a message content in any provider's shape: a string or a list of text parts. */
export const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part === 'string') return part;
      const text = (part as { text?: unknown } | null)?.text;
      return typeof text === 'string' ? text : '';
    })
    .join('');
};
