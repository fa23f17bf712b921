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
  failAfter?: number;
  tokens?: number;
  delayMs?: number;
  hang: boolean;
  alternating: boolean;
};

const directivePattern = /\[sim:([a-z0-9-]+)(?:\s+(\d+))?\]/gi;

export const readDirectives = (text: string): Directives => {
  const out: Directives = { hang: false, alternating: false };
  for (const match of text.matchAll(directivePattern)) {
    const name = (match[1] ?? '').toLowerCase();
    const n = match[2] === undefined ? undefined : Number(match[2]);
    if (name === '429') out.status = 429;
    else if (name === '500') out.status = 500;
    else if (name === 'hang') out.hang = true;
    else if (name === 'alternating') out.alternating = true;
    else if (name === 'fail-after' && n !== undefined) out.failAfter = n;
    else if (name === 'tokens' && n !== undefined) out.tokens = n;
    else if (name === 'delay-ms' && n !== undefined) out.delayMs = n;
  }
  return out;
};

/** A chat request reduced to what the simulator needs, whatever the provider's wire format. */
export type ChatInput = {
  model: string;
  stream: boolean;
  messages: { role: string; text: string }[];
  /** OpenAI's `stream_options.include_usage`. */
  includeUsage: boolean;
  /** The request asked for web search (Gemini's googleSearch tool). */
  webSearch: boolean;
};

export type Reply = {
  /** Unique per request, e.g. `sim000042`; providers add their own prefix. */
  id: string;
  created: number;
  model: string;
  text: string;
  /** The text split word by word; joined they give `text` exactly. */
  chunks: string[];
  promptTokens: number;
  completionTokens: number;
  userText: string;
};

export const MAX_ECHO_CHARS = 200;

const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

export const lastUserText = (input: ChatInput): string =>
  input.messages.findLast((m) => m.role === 'user')?.text ?? '';

export const buildReply = (input: ChatInput, label: string, seq: number): Reply => {
  const userText = lastUserText(input);
  const { tokens } = readDirectives(userText);
  let chunks: string[];
  if (tokens !== undefined) {
    chunks = Array.from({ length: tokens }, (_, i) => `${i === 0 ? '' : ' '}tok${i + 1}`);
  } else {
    const echo =
      userText.length > MAX_ECHO_CHARS ? `${userText.slice(0, MAX_ECHO_CHARS)}…` : userText;
    const text = `Hello from the ${label} simulator (${input.model}). You said: "${echo}"`;
    chunks = text.split(' ').map((word, i) => (i === 0 ? word : ` ${word}`));
  }
  return {
    id: `sim${String(seq).padStart(6, '0')}`,
    created: Math.floor(Date.now() / 1000),
    model: input.model,
    text: chunks.join(''),
    chunks,
    promptTokens: Math.max(
      1,
      input.messages.reduce((n, m) => n + countWords(m.text), 0),
    ),
    completionTokens: chunks.length,
    userText,
  };
};

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
