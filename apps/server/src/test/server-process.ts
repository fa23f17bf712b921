import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import { providerEnv } from './harness.ts';

// The real server (main.ts) in a child process, for tests that kill it, signal it or run two of
// them: the fault tests. Loopback only.

const mainTs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

export type ServerProcess = {
  child: ChildProcess;
  port: number;
  base: string;
  /** What the server wrote to stderr so far (what went wrong before its logger was up). */
  stderr(): string;
  /** Its log lines so far (pino's JSON, one a line, at LOG_LEVEL: warn unless `env` says). */
  logs(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
};

/** main.ts in a child process on `port` with `env`, pointed at the provider simulator. */
export const spawnServerProcess = (opts: {
  dataDir: string;
  simBaseUrls: Record<string, string>;
  port: number;
  databaseUrl?: string | undefined;
  env?: Record<string, string>;
}): ServerProcess => {
  const { port } = opts;
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: opts.databaseUrl ?? '',
      ...providerEnv(opts.simBaseUrls),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let logs = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  child.stdout?.on('data', (d) => (logs += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    child,
    port,
    base: `http://127.0.0.1:${port}`,
    stderr: () => stderr,
    logs: () => logs,
    exited,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
};

/**
 * Starts main.ts on `port` (a free one by default) with `env`, pointed at the provider simulator,
 * and waits until /healthz answers 200.
 */
export const startServerProcess = async (opts: {
  dataDir: string;
  simBaseUrls: Record<string, string>;
  databaseUrl?: string | undefined;
  port?: number;
  env?: Record<string, string>;
}): Promise<ServerProcess> => {
  const server = spawnServerProcess({ ...opts, port: opts.port ?? (await freePort()) });
  const { child, base } = server;
  const stderr = server.stderr;
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return server;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become healthy: ${stderr()}`);
};

/**
 * A person over HTTP against a server process: signed up (or in, when `signIn`), with an OpenAI
 * key and a conversation. `base` may change between calls (another instance, a restarted one).
 */
export const httpUser = async (base: string, email: string, opts: { signIn?: boolean } = {}) => {
  let at = base;
  const origin = () => ({ origin: `http://localhost:${new URL(at).port}` });
  const json = { 'content-type': 'application/json' };
  const res = await fetch(`${at}/auth/v1/${opts.signIn ? 'sign-in' : 'sign-up'}/email`, {
    method: 'POST',
    headers: { ...origin(), ...json },
    body: JSON.stringify({ email, password: 'correct-horse-1', name: 'Fault' }),
  });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = () => ({ ...origin(), ...json, cookie });
  const send = (method: string, url: string, body?: unknown, signal?: AbortSignal) =>
    fetch(`${at}${url}`, {
      method,
      headers: headers(),
      signal: signal ?? null,
      body: body === undefined ? null : JSON.stringify(body),
    });
  await send('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-fault-0001' });
  const conversation = async () =>
    ((await (await send('POST', '/rest/v1/conversations', {})).json()) as Conversation).id;
  return {
    cookie,
    headers,
    send,
    conversation,
    /** Points later calls at another server. */
    use(nextBase: string) {
      at = nextBase;
    },
    chat: (conversationId: string, text: string, signal?: AbortSignal) =>
      send(
        'POST',
        '/functions/v1/chat',
        { conversation_id: conversationId, provider: 'openai', text },
        signal,
      ),
    messages: async (conversationId: string) =>
      (await (
        await send('GET', `/rest/v1/conversations/${conversationId}/messages`)
      ).json()) as Message[],
  };
};

/** Reads a streaming response until `until` holds for what arrived so far; returns the reader. */
export const readUntil = async (res: Response, until: (sse: string) => boolean) => {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let sse = '';
  while (!until(sse)) {
    const { done, value } = await reader.read();
    if (done) break;
    sse += decoder.decode(value, { stream: true });
  }
  return {
    sse: () => sse,
    /** Reads on to the end; resolves with everything that arrived. */
    async rest() {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return sse;
        sse += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
};
