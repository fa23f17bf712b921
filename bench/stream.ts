/**
 * Time to first token and streamed bytes: the built server (`node apps/server/dist/main.js`)
 * against a direct call to the same provider, measured side by side in one run, with 1 and with
 * 50 streams in flight at once.
 *
 *   npm run build && npx tsx bench/stream.ts [--rounds 200] [--concurrency 1,50]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/chorus_bench npx tsx bench/stream.ts
 *
 * Both paths talk to `tools/provider-sim` (OpenAI Responses API, no chunk delay), so the
 * difference is what Chorus adds: session, key, rate limit and quota, the provider call through
 * the provider model (its own stream read as a plain turn), storing the turn beside it, and
 * encoding it as a UI message stream. Each stream belongs to its own user (a browser of its own,
 * with its cookies), so N streams are N people.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProviderSim } from '@chorus/provider-sim';
import { freePort, percentile, repoRoot, signUp, startServer, waitForHealthy } from './lib.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Number(arg('rounds')) || 200;
const levels = (arg('concurrency') ?? '1,50').split(',').map(Number);

const sim = await startProviderSim({ port: 0, chunkDelayMs: 0 });
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-'));
const server = await startServer({
  DATA_DIR: dataDir,
  // Each simulated person signs up from an address of their own.
  TRUST_PROXY: 'true',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  ...Object.fromEntries(
    Object.entries(sim.baseUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
  ),
});
const baseUrl = server.baseUrl;

// The same provider call through our libraries alone (bench/floor-server.ts), in its own process.
const floorPort = await freePort();
const floorServer = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(repoRoot, 'bench/floor-server.ts')],
  {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(floorPort), OPENAI_BASE_URL: sim.baseUrls.openai },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
const floorUrl = `http://127.0.0.1:${floorPort}`;
await waitForHealthy(floorUrl);

const firstChunkAfter = async (
  send: (init: RequestInit) => Promise<Response>,
  init: RequestInit,
  isToken: (text: string) => boolean,
) => {
  const started = performance.now();
  const res = await send(init);
  if (!res.ok || !res.body) throw new Error(`answered ${res.status}: ${await res.text()}`);
  const decoder = new TextDecoder();
  let ttft = Number.NaN;
  let bytes = 0;
  let seen = '';
  const reader = res.body.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    bytes += chunk.byteLength;
    if (Number.isNaN(ttft)) {
      seen += decoder.decode(chunk, { stream: true });
      if (isToken(seen)) ttft = performance.now() - started;
    }
  }
  return { ttft, bytes };
};

const direct = (text: string) =>
  firstChunkAfter(
    (init) => fetch(`${sim.baseUrls.openai}/responses`, init),
    {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk-bench-0000000000000000',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        stream: true,
        input: [{ role: 'user', content: text }],
      }),
    },
    (s) => s.includes('response.output_text.delta'),
  );

const floor = (text: string) =>
  firstChunkAfter(
    (init) => fetch(`${floorUrl}/chat`, init),
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: text }] }),
    },
    (s) => s.includes('"text-delta"'),
  );

/** A person with an OpenAI key and a conversation of their own. */
const person = async (n: number) => {
  const user = await signUp(
    baseUrl,
    `bench-${n}@example.com`,
    undefined,
    `198.18.${n >> 8}.${n & 255}`,
  );
  await user.json('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-bench-0000000000000000' });
  const conversation = (await user.json('POST', '/rest/v1/conversations', {
    title: 'Bench',
  })) as { id: string };
  const viaChorus = (text?: string) =>
    firstChunkAfter(
      (init) => user.send('/functions/v1/chat', init),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          conversation_id: conversation.id,
          provider: 'openai',
          model: 'gpt-4o-mini',
          ...(text ? { text } : { regenerate: true }),
        }),
      },
      (s) => s.includes('"text-delta"'),
    );
  // The conversation's first message; every measured round then regenerates the reply, so the
  // history the server loads and sends stays the same size.
  await viaChorus('Hello [sim:tokens 20]');
  return viaChorus;
};

const people: Awaited<ReturnType<typeof person>>[] = [];
const results: Record<string, unknown>[] = [];
try {
  for (const concurrency of levels) {
    while (people.length < concurrency) people.push(await person(people.length + 1));
    const crowd = people.slice(0, concurrency);
    const batch = async (run: (i: number) => Promise<{ ttft: number }>) =>
      (await Promise.all(crowd.map((_, i) => run(i)))).map((r) => r.ttft);
    for (let i = 0; i < 10; i += 1) {
      await batch(() => direct('warm up [sim:tokens 20]'));
      await batch(() => floor('warm up [sim:tokens 20]'));
      await batch((j) => crowd[j]!());
    }
    const kinds = {
      direct: () => batch(() => direct('Hello [sim:tokens 20]')),
      floor: () => batch(() => floor('Hello [sim:tokens 20]')),
      chorus: () => batch((j) => crowd[j]!()),
    };
    const ttft: Record<keyof typeof kinds, number[]> = { direct: [], floor: [], chorus: [] };
    const orders: (keyof typeof kinds)[][] = [
      ['direct', 'floor', 'chorus'],
      ['chorus', 'direct', 'floor'],
      ['floor', 'chorus', 'direct'],
    ];
    // Fewer rounds at high concurrency: each round is `concurrency` streams of each kind.
    const n = Math.max(12, Math.ceil(rounds / concurrency));
    for (let i = 0; i < n; i += 1) {
      // Rotate which goes first so drift in the machine's load hits all three alike.
      for (const kind of orders[i % orders.length]!) ttft[kind].push(...(await kinds[kind]()));
    }
    const at = (kind: keyof typeof kinds) => ({
      p50: percentile(ttft[kind], 50),
      p95: percentile(ttft[kind], 95),
    });
    const [d, f, c] = [at('direct'), at('floor'), at('chorus')];
    const diff = (a: { p50: number; p95: number }, b: { p50: number; p95: number }) => ({
      p50: +(a.p50 - b.p50).toFixed(2),
      p95: +(a.p95 - b.p95).toFixed(2),
    });
    results.push({
      concurrency,
      streams: ttft.chorus.length,
      direct: d,
      libraries_alone: f,
      chorus: c,
      added: diff(c, d),
      added_by_libraries: diff(f, d),
      added_by_chorus_itself: diff(c, f),
    });
  }

  const sizes = [100, 200, 400, 800, 1600];
  const streamed: { tokens: number; bytes: number }[] = [];
  const one = people[0] ?? (await person(1));
  for (const tokens of sizes) {
    streamed.push({ tokens, bytes: (await one(`Reply [sim:tokens ${tokens}]`)).bytes });
  }

  console.log(
    JSON.stringify(
      {
        rounds,
        database: process.env.BENCH_DATABASE_URL ? 'postgresql' : 'pglite',
        ttft_ms: results,
        streamed_bytes: streamed.map((s) => ({
          ...s,
          bytes_per_token: +(s.bytes / s.tokens).toFixed(1),
        })),
      },
      null,
      2,
    ),
  );
} finally {
  floorServer.kill('SIGTERM');
  await server.stop();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
}
