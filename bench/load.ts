/**
 * Concurrency (issue 13, point 19): time to first token with 20, 50 and 100 chat streams in flight
 * at once, against the built server (`node apps/server/dist/main.js`) and the provider simulator,
 * and a check that every reply was stored exactly as it was streamed.
 *
 *   npm run build && npx tsx bench/load.ts [--levels 20,50,100] [--rounds 5] [--tokens 40]
 *   createdb -h 127.0.0.1 -U postgres chorus_load
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/chorus_load npx tsx bench/load.ts
 *
 * Each stream is its own person (a browser with its cookies, its own conversation and address),
 * sending a new message each round, so each round stores a user message and a reply per person.
 * The simulator answers `--tokens` tokens with its usual 30 ms between chunks, as a provider
 * streams, so replies overlap as they would. Any server setting can be passed in the environment
 * (DATABASE_POOL_SIZE, …). Prints JSON; exits 1 if any stream failed or any reply was stored
 * other than as streamed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startProviderSim } from '@chorus/provider-sim';
import { percentile, signUp, startServer } from './lib.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const levels = (arg('levels') ?? '20,50,100').split(',').map(Number);
const rounds = Number(arg('rounds')) || 5;
const tokens = Number(arg('tokens')) || 40;
/** `steady`: each person sends again as soon as a reply ends; `burst`: rounds that start at once. */
const mode = arg('mode') === 'burst' ? 'burst' : 'steady';
const database = process.env.BENCH_DATABASE_URL ? 'postgresql' : 'pglite';

const sim = await startProviderSim({ port: 0, chunkDelayMs: 30 });
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-load-'));
const server = await startServer({
  DATA_DIR: dataDir,
  TRUST_PROXY: 'true',
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  ...Object.fromEntries(
    Object.entries(sim.baseUrls).map(([id, url]) => [`${id.toUpperCase()}_BASE_URL`, url]),
  ),
});
const baseUrl = server.baseUrl;
// Several runs may share one PostgreSQL database: each run's people are new.
const run = Math.random().toString(36).slice(2, 8);

type Outcome = { ttft: number; text: string; error?: string };

/** A person with an OpenAI key and a conversation; `send` streams one message and reads it all. */
const person = async (n: number) => {
  const user = await signUp(
    baseUrl,
    `load-${run}-${n}@example.com`,
    undefined,
    `198.18.${n >> 8}.${n & 255}`,
  );
  await user.json('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-load-0000000000000000' });
  const { id } = (await user.json('POST', '/rest/v1/conversations', { title: 'Load' })) as {
    id: string;
  };
  const sent: { text: string; reply: string }[] = [];
  const send = async (text: string): Promise<Outcome> => {
    const started = performance.now();
    let ttft = Number.NaN;
    try {
      const res = await user.send('/functions/v1/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          conversation_id: id,
          provider: 'openai',
          model: 'gpt-4o-mini',
          text,
        }),
      });
      if (!res.ok || !res.body) return { ttft, text: '', error: `HTTP ${res.status}` };
      const decoder = new TextDecoder();
      let sse = '';
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        sse += decoder.decode(value, { stream: true });
        if (Number.isNaN(ttft) && sse.includes('"text-delta"')) ttft = performance.now() - started;
      }
      const parts = sse
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => JSON.parse(l.slice(6)) as { type: string; delta?: string; errorText?: string });
      const reply = parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => p.delta)
        .join('');
      const failed = parts.find((p) => p.type === 'error');
      if (failed) return { ttft, text: reply, error: failed.errorText ?? 'error part' };
      if (parts.at(-1)?.type !== 'finish') return { ttft, text: reply, error: 'no finish part' };
      sent.push({ text, reply });
      return { ttft, text: reply };
    } catch (error) {
      return { ttft, text: '', error: (error as Error).message };
    }
  };
  /** Replies stored other than as they were streamed (or not stored, or not complete). */
  const mismatches = async () => {
    const stored = (await user.json('GET', `/rest/v1/conversations/${id}/messages`)) as {
      role: string;
      content: string;
      status: string;
    }[];
    let wrong = 0;
    for (const { text, reply } of sent) {
      const at = stored.findIndex((m) => m.role === 'user' && m.content === text);
      const answer = stored[at + 1];
      if (at < 0 || answer?.status !== 'complete' || answer.content !== reply) wrong += 1;
    }
    return { checked: sent.length, wrong };
  };
  return { send, mismatches };
};

const people: Awaited<ReturnType<typeof person>>[] = [];
const results: Record<string, unknown>[] = [];
let failures = 0;
try {
  for (const level of levels) {
    while (people.length < level) people.push(await person(people.length + 1));
    const crowd = people.slice(0, level);
    // One warm-up round: the JIT, the pool's connections, the caches.
    await Promise.all(crowd.map((p, i) => p.send(`warm-up ${level}-${i} [sim:tokens ${tokens}]`)));
    const ttft: number[] = [];
    const errors: string[] = [];
    const keep = (o: Outcome) => (o.error ? errors.push(o.error) : ttft.push(o.ttft));
    if (mode === 'burst') {
      for (let round = 0; round < rounds; round += 1) {
        const outcomes = await Promise.all(
          crowd.map((p, i) => p.send(`Load ${level}-${round}-${i} [sim:tokens ${tokens}]`)),
        );
        outcomes.forEach(keep);
      }
    } else {
      // `level` people each send their next message as soon as the last reply ended, their first
      // ones spread over a reply's length: `level` streams in flight all the time.
      const replyMs = tokens * 30;
      await Promise.all(
        crowd.map(async (p, i) => {
          await new Promise((r) => setTimeout(r, (i / level) * replyMs));
          for (let round = 0; round < rounds; round += 1)
            keep(await p.send(`Load ${level}-${round}-${i} [sim:tokens ${tokens}]`));
        }),
      );
    }
    // Stored replies are read once every stream of the level has ended.
    const checks = await Promise.all(crowd.map((p) => p.mismatches()));
    const wrong = checks.reduce((n, c) => n + c.wrong, 0);
    failures += errors.length + wrong;
    results.push({
      concurrency: level,
      streams: level * rounds,
      ttft_ms: { p50: percentile(ttft, 50), p95: percentile(ttft, 95) },
      errors: errors.length,
      ...(errors.length > 0 && { first_errors: [...new Set(errors)].slice(0, 3) }),
      replies_checked: checks.reduce((n, c) => n + c.checked, 0),
      replies_not_stored_exactly: wrong,
    });
  }
  const p95At = (level: number) =>
    (results.find((r) => r.concurrency === level)?.ttft_ms as { p95: number } | undefined)?.p95;
  const [low, high] = [p95At(Math.min(...levels)), p95At(Math.max(...levels))];
  console.log(
    JSON.stringify(
      {
        database,
        pool_size: process.env.DATABASE_POOL_SIZE ?? 'default',
        mode,
        rounds,
        tokens,
        levels: results,
        p95_ratio_highest_to_lowest: low && high ? +(high / low).toFixed(2) : null,
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failures > 0 ? 1 : 0);
