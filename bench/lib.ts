import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });

export const percentile = (values: number[], p: number) => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return +sorted[Math.max(0, index)]!.toFixed(2);
};

export const waitForHealthy = async (baseUrl: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${baseUrl} did not become healthy within ${timeoutMs} ms`);
};

/**
 * Signs up (the first account on a fresh database) and keeps the session cookies as a browser
 * does: every answer's Set-Cookie renews them (the session's signed cookie cache among them).
 */
export const signUp = async (
  baseUrl: string,
  email: string,
  password = 'bench-password-1',
  /** The person's address (X-Forwarded-For; the server needs TRUST_PROXY=true). */
  ip?: string,
) => {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  const res = keep(
    await fetch(`${baseUrl}/auth/v1/sign-up/email`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: baseUrl,
        ...(ip && { 'x-forwarded-for': ip }),
      },
      body: JSON.stringify({ email, password, name: 'Bench' }),
    }),
  );
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const headers = () => ({
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    origin: baseUrl,
    ...(ip && { 'x-forwarded-for': ip }),
  });
  /** fetch with this user's cookies, keeping what the answer sets. */
  const send = async (url: string, init: RequestInit = {}) =>
    keep(
      await fetch(url.startsWith('http') ? url : `${baseUrl}${url}`, {
        ...init,
        headers: { ...headers(), ...(init.headers as Record<string, string> | undefined) },
      }),
    );
  const json = async (method: string, url: string, body?: unknown) => {
    const r = await send(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${url} answered ${r.status}: ${await r.text()}`);
    return r.status === 204 ? null : ((await r.json()) as unknown);
  };
  return { headers, send, json };
};

export type RunningServer = { child: ChildProcess; baseUrl: string; stop(): Promise<void> };

/**
 * The built server (`npm run build` first) as its own process, as `npm start` runs it.
 * `BENCH_SERVER_ROOT` points at another checkout's build, to compare two versions in one run.
 */
export const startServer = async (
  env: Record<string, string>,
  port?: number,
): Promise<RunningServer> => {
  const p = port ?? (await freePort());
  const baseUrl = `http://localhost:${p}`;
  const root = process.env.BENCH_SERVER_ROOT ?? repoRoot;
  // BENCH_NODE_ARGS: flags for the server's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(root, 'apps/server/dist/main.js')],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(p),
        APP_URL: baseUrl,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // One user sends hundreds of calls a minute here; the data window is not what is measured.
        RATE_LIMIT_DATA_POINTS: '100000',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  await waitForHealthy(baseUrl);
  return {
    child,
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
};
