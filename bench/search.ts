/**
 * Search inside message text (issue 14): `GET /rest/v1/messages/search` over 100,000 messages of
 * one user, through HTTP against the built server. Target: ≤ 50 ms p95.
 *
 *   npm run build && npx tsx bench/search.ts [--rounds 50] [--messages 100000]
 *
 * Set BENCH_DATABASE_URL to run on PostgreSQL instead of the embedded PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { freePort, percentile, signUp, startServer } from './lib.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Number(arg('rounds')) || 50;
const total = Number(arg('messages')) || 100_000;
const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-search-'));
const port = await freePort();
const env = { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };

// Words of different frequency: every message has two of the common ones; `rare` words appear
// in one message in a thousand, `unique` words in one message each.
const common = ['lisbon', 'budget', 'travel', 'museum', 'river', 'coffee', 'garden', 'train'];

let server = await startServer(env, port);
try {
  const user = await signUp(server.baseUrl, `bench-search-${Date.now()}@example.com`);
  const session = (await user.json('GET', '/auth/v1/get-session')) as { user: { id: string } };
  const userId = session.user.id;
  const conversations: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    const c = (await user.json('POST', '/rest/v1/conversations', { title: `Chat ${i}` })) as {
      id: string;
    };
    conversations.push(c.id);
  }
  await server.stop();
  const database = openDatabase({ databaseUrl, dataDir });
  const started = performance.now();
  await database.db.execute(sql`
    insert into messages (conversation_id, user_id, role, content, provider, model)
    select (${`{${conversations.join(',')}}`}::uuid[])[1 + g % ${conversations.length}], ${userId},
           case when g % 2 = 1 then 'user' else 'assistant' end,
           'Message ' || g || ' about the ' || (${`{${common.join(',')}}`}::text[])[1 + g % 8] || ' and the '
             || (${`{${common.join(',')}}`}::text[])[1 + (g / 8) % 8] || ', '
             || case when g % 1000 = 0 then 'carpenter ' else '' end
             || 'token' || g || ' ' || repeat('lorem ipsum dolor sit amet ', 6) || 'end.',
           'openai', 'gpt-4o-mini'
    from generate_series(1, ${total}) g`);
  console.error(`seeded ${total} messages in ${Math.round(performance.now() - started)} ms`);
  // Fresh planner statistics, as the hourly refresh-planner-statistics job keeps them on PGlite
  // (which runs no autovacuum) and autovacuum keeps them on PostgreSQL.
  await database.db.execute(sql`analyze messages`);
  await database.close();
  server = await startServer(env, port);

  const search = async (q: string) => {
    const t0 = performance.now();
    const res = await fetch(
      `${server.baseUrl}/rest/v1/messages/search?q=${encodeURIComponent(q)}&limit=20`,
      { headers: user.headers() },
    );
    if (!res.ok) throw new Error(`search answered ${res.status}`);
    const body = (await res.json()) as { hits: unknown[] };
    return { ms: performance.now() - t0, hits: body.hits.length };
  };
  const queries: Record<string, string> = {
    'common word (50% of messages)': 'lisbon',
    'two common words': 'budget museum',
    'rare word (0.1%)': 'carpenter',
    'unique word': `token${Math.floor(total / 2)}`,
    'prefix of a rare word': 'carpen',
    'no match': 'zebra',
  };
  for (const q of Object.values(queries)) for (let i = 0; i < 5; i += 1) await search(q);
  const results: Record<string, { hits: number; p50: number; p95: number }> = {};
  const all: number[] = [];
  for (const [name, q] of Object.entries(queries)) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < rounds; i += 1) {
      const r = await search(q);
      times.push(r.ms);
      hits = r.hits;
    }
    all.push(...times);
    results[name] = {
      hits,
      p50: +percentile(times, 50).toFixed(1),
      p95: +percentile(times, 95).toFixed(1),
    };
  }
  console.log(
    JSON.stringify(
      {
        database: databaseUrl ? 'postgresql' : 'pglite',
        messages: total,
        rounds,
        queries: results,
        all: { p50: +percentile(all, 50).toFixed(1), p95: +percentile(all, 95).toFixed(1) },
      },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
