import { createServer, connect, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import { serviceMessages } from '@chorus/shared/messages';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { partsOf, textOf, waitFor } from '../test/streams.ts';
import {
  expectOnlyUnavailable,
  outageVisitor,
  trafficThroughOutage,
} from '../test/outage-traffic.ts';
import { connectPostgres } from './client.ts';
import { DatabaseUnavailableError, isDatabaseUnavailable } from './database-errors.ts';
import { defaultPoolSettings } from './postgres-pool.ts';

// The link to PostgreSQL stalls (packets stop, nothing is closed) behind a TCP proxy the test
// controls (issue 13, point 14). Every wait must be bounded: /healthz and API requests answer 503
// instead of hanging, a chat stream still ends at its finish, and everything recovers once the
// link does. Only meaningful on PostgreSQL.

/** A loopback TCP proxy that can stop forwarding without closing anything, and go on later. */
const stallableProxy = async (target: { host: string; port: number }) => {
  let stalled = false;
  const waiting: (() => void)[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    const open = () => {
      const upstream = connect(target.port, target.host);
      sockets.add(upstream);
      upstream.on('close', () => (sockets.delete(upstream), client.destroy()));
      upstream.on('error', () => upstream.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    };
    // A new connection during a stall is accepted and then hears nothing, as a black hole does.
    if (stalled) waiting.push(open);
    else open();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    stall() {
      stalled = true;
      for (const s of sockets) s.pause();
    },
    resume() {
      stalled = false;
      for (const s of sockets) s.resume();
      for (const open of waiting.splice(0)) open();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
};

describe.skipIf(testDriver() !== 'postgres')('a stalled link to PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof createPostgresDatabaseUrl>>;
  let proxy: Awaited<ReturnType<typeof stallableProxy>>;
  let t: TestApp;

  beforeAll(async () => {
    fresh = await createPostgresDatabaseUrl();
    const url = new URL(fresh.url);
    proxy = await stallableProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    // The default pool settings: the stall is found by the pool's own check, within seconds.
    const database = connectPostgres(url.toString());
    t = await startTestApp({ database, providerSim: true });
  });
  afterAll(async () => {
    proxy?.resume();
    await t?.close();
    await t?.database.close();
    await proxy?.close();
    await fresh?.drop();
  });

  it('answers 503 with Retry-After instead of hanging, ends streams at their finish, and recovers', async () => {
    const ann = await t.user('stall-ann@example.com');
    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-stall-db-0001' });
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
    const res = await ann.send('POST', '/functions/v1/chat', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        conversation_id: conv.id,
        provider: 'openai',
        text: 'Steady [sim:tokens 30] [sim:delay-ms 50]',
      }),
    });
    const reader = res.body!.getReader();
    let sse = '';
    while (!sse.includes('text-delta'))
      sse += new TextDecoder().decode((await reader.read()).value);

    proxy.stall();
    const health = await t.client().get<Record<string, string>>('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', database: 'unavailable' });

    // More requests than the pool has connections: each is refused, none hangs.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        ann.get<{ code: string; error: string }>('/rest/v1/conversations'),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        code: 'database:unavailable',
        error: serviceMessages.databaseUnavailable(5),
      });
      expect(answer.headers.get('retry-after')).toBe('5');
    }

    // The reply streams on from the provider and its response ends, though it cannot be saved.
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      sse += new TextDecoder().decode(value);
    }
    const parts = partsOf(sse);
    expect(parts.at(-1)?.type).toBe('finish');
    expect(parts.some((p) => p.type === 'error')).toBe(false);
    expect(t.deps.saves.size).toBeGreaterThan(0);

    proxy.resume();
    await waitFor(() => t.deps.saves.size === 0, 20_000);
    const [, reply] = (
      await ann.get<{ content: string; status: string }[]>(
        `/rest/v1/conversations/${conv.id}/messages`,
      )
    ).body;
    expect(reply).toMatchObject({ status: 'complete', content: textOf(parts) });
    await waitFor(async () => (await t.client().get('/healthz')).status === 200, 10_000);
    expect((await ann.get('/rest/v1/conversations')).status).toBe(200);
  }, 60_000);

  it('answers every signed-in request 503 database:unavailable with Retry-After, 30 s into a stall too, sessions included', async () => {
    const visitor = await outageVisitor(t, 'stall-dee@example.com');
    const answers = await trafficThroughOutage(visitor, {
      ms: 31_000,
      outage: () => proxy.stall(),
      end: () => proxy.resume(),
    });
    expectOnlyUnavailable(answers, 30);
    await waitFor(
      async () => (await visitor.person.get('/rest/v1/conversations')).status === 200,
      20_000,
    );
  }, 120_000);

  it('refuses at once what would wait beyond its queue', async () => {
    const database = connectPostgres(fresh.url, {
      ...defaultPoolSettings,
      size: 1,
      maxWaiting: 1,
    });
    try {
      // Drizzle's queries start when awaited: `then` sends them now.
      const busy = database.db.execute(sql`select pg_sleep(0.5)`).then(() => 'done');
      const queued = database.db.execute(sql`select 1`).then(() => 'done');
      const refused = await database.db.execute(sql`select 2`).then(
        () => null,
        (error: unknown) => error,
      );
      expect((refused as Error).cause).toBeInstanceOf(DatabaseUnavailableError);
      expect(isDatabaseUnavailable(refused)).toBe(true);
      expect(await Promise.all([busy, queued])).toEqual(['done', 'done']);
    } finally {
      await database.close();
    }
  });
});
