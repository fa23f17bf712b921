import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startProviderSim } from '@chorus/provider-sim';
import { chatMessages } from '../../packages/shared/src/messages.ts';
import { seedPgliteDataDir } from '../../apps/server/src/test/template.ts';
import { e2eTmpDir, repoRoot } from '../support/paths.ts';
import { freePortSync } from '../support/ports.ts';

// `npm start` as an operator and a container runtime use it: SIGTERM goes to npm itself, which
// must hand it to the server, and the server must stop gracefully and exit 0 (scripts/start.mjs).
// No browser: it runs here, after the build, so start.mjs finds a fresh build and starts at once.

/** Signs up over HTTP; `send` carries the session cookie and the origin the API wants. */
const signUp = async (base: string, email: string) => {
  const headers = {
    origin: base.replace('127.0.0.1', 'localhost'),
    'content-type': 'application/json',
  };
  const res = await fetch(`${base}/auth/v1/sign-up/email`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'correct-horse-1', name: 'Npm Start' }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { ...headers, cookie },
      body: body === undefined ? null : JSON.stringify(body),
    });
};

/** A streamed chat reply, read until its first token; `rest()` reads on to the end. */
const longReply = async (send: Awaited<ReturnType<typeof signUp>>) => {
  const conversation = (await (await send('POST', '/rest/v1/conversations', {})).json()) as {
    id: string;
  };
  const res = await send('POST', '/functions/v1/chat', {
    conversation_id: conversation.id,
    provider: 'openai',
    text: 'At length [sim:tokens 400] [sim:delay-ms 50]',
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let sse = '';
  while (!sse.includes('text-delta')) {
    const { value, done } = await reader.read();
    if (done) break;
    sse += decoder.decode(value, { stream: true });
  }
  return {
    async rest() {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return sse;
        sse += decoder.decode(value, { stream: true });
      }
    },
  };
};

test('SIGTERM to `npm start` reaches the server, which ends long replies gracefully and exits 0', async () => {
  test.setTimeout(120_000);
  const sim = await startProviderSim({ port: 0, host: '127.0.0.1' });
  const dataDir = mkdtempSync(join(e2eTmpDir, 'npm-start-'));
  const port = freePortSync();
  const base = `http://127.0.0.1:${port}`;
  await seedPgliteDataDir(dataDir);
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '1000',
      ...Object.fromEntries(
        Object.entries(sim.baseUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
      ),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (d) => (output += String(d)));
  npm.stderr.on('data', (d) => (output += String(d)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  /** The server's own process, from its lock: killed at the end should the test fail. */
  let serverPid: number | undefined;
  try {
    await expect
      .poll(
        async () => {
          expect(npm.exitCode, output).toBeNull();
          return fetch(`${base}/readyz`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 60_000 },
      )
      .toBe(200);
    expect(output).not.toContain('rebuilding');
    serverPid = (JSON.parse(readFileSync(join(dataDir, 'chorus.lock'), 'utf8')) as { pid: number })
      .pid;
    expect(serverPid).not.toBe(npm.pid);

    const send = await signUp(base, 'npm-start@example.com');
    expect(
      (await send('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-npm-start-0001' })).status,
    ).toBe(200);
    const streams = [await longReply(send), await longReply(send)];

    npm.kill('SIGTERM');
    // Each long reply ends with the graceful stop's message, which only the server sends.
    for (const stream of streams) {
      const sse = await stream.rest();
      expect(sse).toContain(JSON.stringify(chatMessages.serverRestarting));
    }
    // npm waited for the server and passed on its exit code; nothing is left serving.
    expect(await exited, output).toEqual({ code: 0, signal: null });
    await expect(fetch(`${base}/livez`)).rejects.toThrow();
    expect(existsSync(join(dataDir, 'chorus.lock'))).toBe(false);
    expect(output).not.toContain('stopping failed');
  } finally {
    if (npm.exitCode === null) npm.kill('SIGKILL');
    try {
      if (serverPid) process.kill(serverPid, 'SIGKILL');
    } catch {
      // Gone, as it should be.
    }
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
