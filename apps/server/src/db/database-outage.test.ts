import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Conversation } from '@chorus/shared/api/conversations';
import { chatMessages } from '@chorus/shared/messages';
import { stopGracefully } from '../lifecycle/graceful-stop.ts';
import { providerEnv, startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { testDriver } from '../test/database.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../test/private-postgres.ts';
import { partsOf, textOf, waitFor } from '../test/streams.ts';
import {
  expectOnlyUnavailable,
  outageVisitor,
  trafficThroughOutage,
} from '../test/outage-traffic.ts';
import { sessionAuthenticator } from '../services/realtime/authenticate.ts';
import { connectPostgres } from './client.ts';
import { messages, usageEvents } from './schema/index.ts';

// PostgreSQL stops while replies stream and sockets listen, then comes back (issue 13, points 12
// and 13). On a cluster of the test's own: the suite's shared server must not be stopped. Runs
// once, in the PostgreSQL pass of the integration project.

const pgBinaries = testDriver() === 'postgres' ? await startPrivatePostgres() : null;
if (testDriver() === 'postgres' && !pgBinaries) {
  console.warn('database-outage.test.ts skipped: no PostgreSQL binaries (initdb, pg_ctl) found');
}

describe.skipIf(!pgBinaries)('a PostgreSQL outage', () => {
  const pgp = pgBinaries as PrivatePostgres;
  let t: TestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const database = connectPostgres(pgp.url);
    await database.migrate();
    t = await startTestApp({ database, providerSim: true });
    server = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(s as Server),
      );
    });
    await t.deps.realtime.attach(server, sessionAuthenticator(t.deps));
    base = `127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await t?.database.close();
    await new Promise((r) => server?.close(r));
    await pgp.destroy();
  });

  const health = async () => {
    const res = await fetch(`http://${base}/healthz`);
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  const socket = (cookies: Map<string, string>) =>
    new Promise<{ heard: string[]; closed: Promise<number>; ws: WebSocket }>((resolve, reject) => {
      const ws = new WebSocket(`ws://${base}/realtime/v1`, {
        headers: {
          origin: TEST_APP_URL,
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      const heard: string[] = [];
      const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data)) as { type: string; change?: { id: string } };
        heard.push(msg.change?.id ?? msg.type);
        if (msg.type === 'ready') resolve({ heard, closed, ws });
      });
      ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.on('error', reject);
    });

  it('stores every reply the clients saw in full, and its usage, once the database is back', async () => {
    const ann = await t.user('outage-ann@example.com');
    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-outage-0001' });
    const conversations = await Promise.all(
      Array.from(
        { length: 10 },
        async () => (await ann.post<Conversation>('/rest/v1/conversations', {})).body.id,
      ),
    );
    const streams = await Promise.all(
      conversations.map(async (id) => {
        const res = await ann.send('POST', '/functions/v1/chat', {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            conversation_id: id,
            provider: 'openai',
            text: 'A long one [sim:tokens 60] [sim:delay-ms 40]',
          }),
        });
        const reader = res.body!.getReader();
        let sse = '';
        while (!sse.includes('text-delta'))
          sse += new TextDecoder().decode((await reader.read()).value);
        return { reader, sse };
      }),
    );

    await pgp.stop('fast');
    // Each client reads its reply to the end, finish included, while the database is away.
    const seen = await Promise.all(
      streams.map(async ({ reader, sse }) => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return partsOf(sse);
          sse += new TextDecoder().decode(value);
        }
      }),
    );
    for (const parts of seen) {
      expect(parts.some((p) => p.type === 'error')).toBe(false);
      expect(parts.at(-1)?.type).toBe('finish');
      expect(textOf(parts).split(' ')).toHaveLength(60);
    }
    expect(t.deps.saves.size).toBeGreaterThan(0);

    await pgp.start();
    await waitFor(() => t.deps.saves.size === 0, 20_000);
    const rows = await t.db
      .select()
      .from(messages)
      .where(inArray(messages.conversation_id, conversations));
    const replies = rows.filter((m) => m.role === 'assistant');
    expect(replies).toHaveLength(10);
    for (const reply of replies) {
      expect(reply.status).toBe('complete');
      expect(reply.content).toBe(textOf(seen[conversations.indexOf(reply.conversation_id)]!));
    }
    const usage = await t.db.select().from(usageEvents).where(eq(usageEvents.user_id, ann.id));
    expect(usage.map((u) => [u.source, u.status, u.output_tokens])).toEqual(
      Array.from({ length: 10 }, () => ['chat', 'ok', 60]),
    );
    // Back to healthy without a restart.
    await waitFor(async () => (await health()).status === 200, 20_000);
  }, 60_000);

  it('closes live sockets while the feed is down, says so in /healthz, and delivers changes again once it is back', async () => {
    const ben = await t.user('outage-ben@example.com');
    expect(await health()).toEqual({
      status: 200,
      body: { status: 'ok', database: 'ok', realtime: 'ok' },
    });
    const tab = await socket(ben.cookies);

    await pgp.stop('fast');
    // The client is told to come back later, and is refused until the feed is back.
    expect(await tab.closed).toBe(1013);
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', realtime: 'unavailable' });
    await expect(socket(ben.cookies)).rejects.toThrow('HTTP 503');

    await pgp.start();
    await waitFor(async () => (await health()).status === 200, 20_000);
    const again = await socket(ben.cookies);
    const conv = (await ben.post<Conversation>('/rest/v1/conversations', {})).body;
    await waitFor(() => again.heard.includes(conv.id));
    again.ws.close();
  }, 60_000);

  it('answers every signed-in request 503 database:unavailable with Retry-After, 30 s into the outage too, sessions included', async () => {
    const visitor = await outageVisitor(t, 'outage-dee@example.com');
    const answers = await trafficThroughOutage(visitor, {
      ms: 31_000,
      outage: () => pgp.stop('fast'),
      end: () => pgp.start(),
    });
    expectOnlyUnavailable(answers, 30);

    // Back without a restart: the same session works again.
    const { person } = visitor;
    await waitFor(async () => (await person.get('/rest/v1/conversations')).status === 200, 30_000);
    expect((await person.get<{ user: { id: string } }>('/auth/v1/get-session')).body.user.id).toBe(
      person.id,
    );
  }, 120_000);

  it('tells a client its reply was not saved when the server must stop while the database is away', async () => {
    // An instance of its own: stopping it closes its pools.
    const other = await startTestApp({
      database: connectPostgres(pgp.url),
      env: providerEnv(t.sim.baseUrls),
    });
    const otherServer = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: other.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(s as Server),
      );
    });
    const cid = await other.user('outage-cid@example.com');
    await cid.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-outage-0003' });
    const conv = (await cid.post<Conversation>('/rest/v1/conversations', {})).body;
    const res = await cid.send('POST', '/functions/v1/chat', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        conversation_id: conv.id,
        provider: 'openai',
        text: 'Long [sim:tokens 200] [sim:delay-ms 40]',
      }),
    });
    // The first token is forwarded only once the turn is stored (ARCHITECTURE §11): the outage
    // starts after that, mid-reply.
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let sse = '';
    while (!sse.includes('"text-delta"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the reply ended before its first token: ${sse}`);
      sse += decoder.decode(value, { stream: true });
    }
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return sse;
        sse += decoder.decode(value, { stream: true });
      }
    })();
    await pgp.stop('fast');
    try {
      await stopGracefully({
        server: otherServer,
        deps: other.deps,
        database: other.database,
        graceMs: 0,
      });
      const errors = partsOf(await reading)
        .filter((p) => p.type === 'error')
        .map((p) => p.errorText);
      expect(errors).toEqual([chatMessages.serverRestarting, chatMessages.replyNotSaved]);
    } finally {
      await pgp.start();
      rmSync(other.config.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
