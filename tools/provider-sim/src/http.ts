import type { IncomingMessage, ServerResponse } from 'node:http';

export type Json = Record<string, unknown>;

export const asRecord = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const asString = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const readBody = async (req: IncomingMessage): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
};

export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
};

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export const sleep = (ms: number, signal: AbortSignal): Promise<boolean> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    if (ms <= 0) return resolve(true);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

export const untilAborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** A secret shown the way Chorus shows keys: `sk-…a1b2`. */
export const maskSecret = (secret: string): string =>
  secret.length <= 8 ? '***' : `${secret.slice(0, 3)}…${secret.slice(-4)}`;

const secretHeaders = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
]);

export const maskHeaders = (req: IncomingMessage): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(req.headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (!secretHeaders.has(name)) out[name] = value;
    else {
      const bearer = /^(Bearer\s+)(.*)$/i.exec(value);
      out[name] = bearer ? `${bearer[1]}${maskSecret(bearer[2] ?? '')}` : maskSecret(value);
    }
  }
  return out;
};

export const maskQueryKey = (url: URL): string => {
  const key = url.searchParams.get('key');
  if (key === null) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set('key', maskSecret(key));
  return copy.pathname + copy.search;
};

export const bearerToken = (req: IncomingMessage): string | undefined => {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1]?.trim() || undefined;
};

export const headerValue = (req: IncomingMessage, name: string): string | undefined => {
  const raw = req.headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.trim() || undefined;
};

/** One unit a streaming response writes: a JSON event, OpenAI's `[DONE]`, or an SSE comment. */
export type Frame = { event?: string; data: unknown } | { done: true } | { comment: string };

export type Framing = 'sse' | 'ndjson' | 'json-array';

const contentTypes: Record<Framing, string> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson',
  'json-array': 'application/json; charset=utf-8',
};

/** Writes frames in a provider's framing: SSE, NDJSON (Ollama) or a streamed JSON array (Gemini without `alt=sse`). */
export class FrameWriter {
  private wroteItem = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly framing: Framing,
  ) {}

  open(headers: Record<string, string> = {}): void {
    this.res.writeHead(200, {
      'content-type': contentTypes[this.framing],
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    this.res.flushHeaders();
  }

  private lastWrite: Promise<void> = Promise.resolve();

  write(frames: Frame[]): void {
    const text = frames.map((frame) => this.serialize(frame)).join('');
    if (text === '' || this.res.destroyed) return;
    this.lastWrite = new Promise((resolve) => this.res.write(text, () => resolve()));
  }

  /** Resolves once everything written so far has been handed to the socket. */
  flushed(): Promise<void> {
    return this.lastWrite;
  }

  end(): void {
    if (this.framing === 'json-array') this.res.end(this.wroteItem ? '\n]' : '[]');
    else this.res.end();
  }

  private serialize(frame: Frame): string {
    if ('comment' in frame) return this.framing === 'sse' ? `: ${frame.comment}\n\n` : '';
    if ('done' in frame) return this.framing === 'sse' ? 'data: [DONE]\n\n' : '';
    const json = JSON.stringify(frame.data);
    switch (this.framing) {
      case 'sse':
        return `${frame.event ? `event: ${frame.event}\n` : ''}data: ${json}\n\n`;
      case 'ndjson':
        return `${json}\n`;
      case 'json-array': {
        const prefix = this.wroteItem ? ',\r\n' : '[';
        this.wroteItem = true;
        return prefix + json;
      }
    }
  }
}
