import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import { httpUser, readUntil, startServerProcess } from '../test/server-process.ts';
import { partsOf, textOf } from '../test/streams.ts';
import { seedPgliteDataDir } from '../test/template.ts';
import { connectPostgres } from './client.ts';

// A busy or paused process is not a lost database (postgres-pool.ts): a CPU-bound burst that holds
// the event loop past the pool's timeouts, and a server process stopped with SIGSTOP for 6 s under
// load, must not fail a single query or turn while PostgreSQL is fine.

/** Holds the event loop, as a CPU-bound piece of work does. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
};

let pgDb: Awaited<ReturnType<typeof createPostgresDatabaseUrl>> | undefined;
beforeAll(async () => {
  if (testDriver() === 'postgres') pgDb = await createPostgresDatabaseUrl();
});
afterAll(async () => {
  await pgDb?.drop();
});

describe.skipIf(testDriver() !== 'postgres')('CPU-bound bursts', () => {
  it('fail no query and leave the pool trusting a database that answers', async () => {
    const database = connectPostgres(pgDb!.url);
    try {
      const failures: unknown[] = [];
      let done = 0;
      // Queries in flight the whole time, each holding its connection a while, so the pool's
      // watchdog keeps checking the link, and checks run into the bursts.
      const load = async () => {
        for (let i = 0; i < 40; i++) {
          await database.db.execute(sql`select pg_sleep(0.2)`).then(
            () => done++,
            (error: unknown) => failures.push(error),
          );
        }
      };
      const running = Promise.all([load(), load(), load(), load()]);
      await new Promise((r) => setTimeout(r, 1_500));
      // Five bursts of 2.5 s, one turn of the loop apart: longer than the pool's 2 s check.
      for (let burst = 0; burst < 5; burst++) {
        busy(2_500);
        await turn();
      }
      await running;
      expect(failures.map((e) => (e as Error).message)).toEqual([]);
      expect(done).toBe(160);
      // Not marked lost: a query right after is sent, not refused.
      expect(await database.db.execute(sql`select 1 as one`)).toBeTruthy();
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('a server process paused for 6 s under load', () => {
  let sim: Awaited<ReturnType<typeof startProviderSim>>;
  let dataDir: string;
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;

  beforeAll(async () => {
    sim = await startProviderSim({ port: 0 });
    dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-paused-'));
    if (!pgDb) await seedPgliteDataDir(dataDir);
  }, 60_000);
  afterAll(async () => {
    if (server) process.kill(server.child.pid!, 'SIGCONT');
    await server?.kill('SIGKILL');
    await sim?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fails no turn, streaming or sent during the pause, and stores every reply', async () => {
    server = await startServerProcess({
      dataDir,
      simBaseUrls: sim.baseUrls,
      databaseUrl: pgDb?.url,
      // A small pool, so requests queue for connections when the process stops.
      env: { DATABASE_POOL_SIZE: '3' },
    });
    const pid = server.child.pid!;
    const people = await Promise.all(
      [0, 1, 2, 3].map((i) => httpUser(server!.base, `paused-${i}@example.com`)),
    );
    const streaming = await Promise.all(
      people.flatMap((person) =>
        [0, 1, 2].map(async () => {
          const conversation = await person.conversation();
          const stream = await readUntil(
            await person.chat(conversation, 'Steady [sim:tokens 40] [sim:delay-ms 100]'),
            (sse) => sse.includes('text-delta'),
          );
          return { person, conversation, stream, words: 40 };
        }),
      ),
    );
    const later = await Promise.all(
      people.map(async (person) => ({ person, conversation: await person.conversation() })),
    );

    // On PostgreSQL, every connection busy when the process stops: the list of conversations
    // waits on a lock the test holds, so of the reads sent now 3 hold the pool's connections and
    // the rest queue for one, their waits (5 s) running out during the pause by the wall clock.
    // The lock is let go during the pause: the database is fine again before the process goes on.
    const locker = pgDb ? new pg.Client({ connectionString: pgDb.url }) : null;
    await locker?.connect();
    await locker?.query('begin');
    await locker?.query('lock table conversations in access exclusive mode');
    const readsAtPause = Array.from({ length: 20 }, (_, i) =>
      people[i % people.length]!.send('GET', '/rest/v1/conversations'),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    process.kill(pid, 'SIGSTOP');
    await locker?.query('commit');
    await locker?.end();
    // Sent while it is stopped: the kernel holds them until it goes on.
    const sentDuringPause = later.map(({ person, conversation }) => ({
      person,
      conversation,
      words: 5,
      answer: person.chat(conversation, 'While it sleeps [sim:tokens 5]'),
    }));
    const readsDuringPause = people.map((person) => person.send('GET', '/rest/v1/conversations'));
    await new Promise((r) => setTimeout(r, 6_000));
    process.kill(pid, 'SIGCONT');

    const turns = [
      ...(await Promise.all(
        streaming.map(async (s) => ({ ...s, parts: partsOf(await s.stream.rest()) })),
      )),
      ...(await Promise.all(
        sentDuringPause.map(async (s) => {
          const res = await s.answer;
          expect(res.status).toBe(200);
          return { ...s, parts: partsOf(await res.text()) };
        }),
      )),
    ];
    const reads = await Promise.all([...readsAtPause, ...readsDuringPause]);
    expect(reads.map((res) => res.status)).toEqual(reads.map(() => 200));
    for (const { parts, words } of turns) {
      expect(parts.filter((p) => p.type === 'error')).toEqual([]);
      expect(parts.at(-1)?.type).toBe('finish');
      expect(textOf(parts).split(' ')).toHaveLength(words);
    }
    for (const { person, conversation } of turns) {
      const messages = await person.messages(conversation);
      expect(messages.map((m) => [m.role, m.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'complete'],
      ]);
    }
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    expect(server.stderr()).not.toMatch(/cannot be reached|could not be saved/);
  }, 120_000);
});
