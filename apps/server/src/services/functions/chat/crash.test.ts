import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import { createPostgresDatabaseUrl, testDriver } from '../../../test/database.ts';
import { providerEnv } from '../../../test/harness.ts';

// A real server process, killed with SIGKILL in the middle of a reply, then started again on the
// same data: the user's message and the partial reply must both be there, nothing left streaming.

const mainTs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../main.ts');
let sim: Awaited<ReturnType<typeof startProviderSim>>;
let dataDir: string;
let pgDb: Awaited<ReturnType<typeof createPostgresDatabaseUrl>> | undefined;
let server: ChildProcess | undefined;
let port: number;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

const startServer = async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : { DATABASE_URL: '' }),
      ...providerEnv(sim.baseUrls),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy: ${stderr}`);
};

beforeAll(async () => {
  sim = await startProviderSim({ port: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-'));
  if (testDriver() === 'postgres') pgDb = await createPostgresDatabaseUrl();
  port = await freePort();
}, 60_000);

afterAll(async () => {
  server?.kill('SIGKILL');
  await sim.close();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('keeps the user message and the partial reply when the server is killed mid-stream', async () => {
  server = await startServer();
  const base = `http://127.0.0.1:${port}`;
  const origin = { origin: `http://localhost:${port}`, 'content-type': 'application/json' };
  const signUp = await fetch(`${base}/auth/v1/sign-up/email`, {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({
      email: 'crash@example.com',
      password: 'correct-horse-1',
      name: 'Crash',
    }),
  });
  expect(signUp.status).toBe(200);
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { ...origin, cookie };
  await fetch(`${base}/rest/v1/api-keys/openai`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ api_key: 'sk-crash-0001' }),
  });
  const conv = (await (
    await fetch(`${base}/rest/v1/conversations`, { method: 'POST', headers, body: '{}' })
  ).json()) as Conversation;

  const res = await fetch(`${base}/functions/v1/chat`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      conversation_id: conv.id,
      provider: 'openai',
      text: 'Keep talking [sim:hang]',
    }),
  });
  const reader = res.body!.getReader();
  let seen = '';
  while (!seen.includes('text-delta'))
    seen += new TextDecoder().decode((await reader.read()).value);
  // Past one flush interval the partial reply is on disk.
  await new Promise((r) => setTimeout(r, 1_500));
  server.kill('SIGKILL');
  await new Promise((r) => server!.once('exit', r));
  await reader.cancel().catch(() => undefined);

  server = await startServer();
  const after = (await (
    await fetch(`${base}/rest/v1/conversations/${conv.id}/messages`, { headers })
  ).json()) as Message[];
  expect(after.map((m) => [m.role, m.status])).toEqual([
    ['user', 'complete'],
    ['assistant', 'interrupted'],
  ]);
  expect(after[0]!.content).toBe('Keep talking [sim:hang]');
  expect(after[1]!.content.length).toBeGreaterThan(0);
}, 120_000);
