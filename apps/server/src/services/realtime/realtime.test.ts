import type { Server } from 'node:http';
import { connect as connectTcp } from 'node:net';
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Conversation } from '@chorus/shared/api/conversations';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../test/harness.ts';
import { sessionAuthenticator } from './authenticate.ts';
import { SESSION_ENDED_CLOSE_CODE } from './hub.ts';

let t: TestApp;
let server: Server;
let url: string;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(s as Server),
    );
  });
  await t.deps.realtime.attach(server, sessionAuthenticator(t.deps));
  url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/realtime/v1`;
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

type Received = { type: string; change?: { table: string; type: string; id: string } };

/** Opens a socket as `user` and collects what it hears. */
const connect = (cookies: Map<string, string>, origin = TEST_APP_URL) =>
  new Promise<{ ws: WebSocket; heard: Received[]; closed: Promise<number> }>((resolve, reject) => {
    const ws = new WebSocket(url, {
      headers: { origin, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    const heard: Received[] = [];
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Received;
      heard.push(msg);
      if (msg.type === 'ready') resolve({ ws, heard, closed });
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });

/** Waits until `check` holds; a deadline for a broken build, not a bar on speed (that is bench/). */
const eventually = async (check: () => boolean, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('not heard in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('/realtime/v1', () => {
  it("tells a user's other tabs about their changes, and nobody else", async () => {
    const ann = await t.user('rt-ann@example.com');
    const bob = await t.user('rt-bob@example.com');
    const annTab = await connect(ann.cookies);
    const bobTab = await connect(bob.cookies);

    const conv = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'Live' })).body;
    await eventually(() => annTab.heard.some((m) => m.change?.id === conv.id));
    expect(annTab.heard.find((m) => m.change?.id === conv.id)?.change).toMatchObject({
      table: 'conversations',
      type: 'INSERT',
    });

    await ann.post(`/rest/v1/conversations/${conv.id}/messages`, {
      content: 'secret words',
      role: 'user',
    });
    await eventually(() => annTab.heard.some((m) => m.change?.table === 'messages'));
    // Changes reach the sockets in order: once Bob hears his own later change, anything of Ann's
    // sent to him would already be there.
    const bobs = (await bob.post<Conversation>('/rest/v1/conversations', { title: 'Mine' })).body;
    await eventually(() => bobTab.heard.some((m) => m.change?.id === bobs.id));
    expect(bobTab.heard.filter((m) => m.type === 'change').map((m) => m.change?.id)).toEqual([
      bobs.id,
    ]);
    expect(JSON.stringify(annTab.heard)).not.toContain('secret words');
    annTab.ws.close();
    bobTab.ws.close();
  });

  it('announces a chat turn from the statements that store it: the messages, then the finished reply', async () => {
    const ann = await t.user('rt-chat@example.com');
    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-rt-chat-0001' });
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'Turn' })).body;
    const tab = await connect(ann.cookies);
    const res = await ann.post<string>('/functions/v1/chat', {
      conversation_id: conv.id,
      provider: 'openai',
      text: 'Hello there',
    });
    expect(res.status).toBe(200);
    const heard = () =>
      tab.heard.filter((m) => m.change?.table === 'messages').map((m) => m.change!.type);
    await eventually(() => heard().includes('UPDATE'));
    expect(heard()).toEqual(['INSERT', 'INSERT', 'UPDATE']);
    tab.ws.close();
  });

  it('refuses sockets without a session or from another origin', async () => {
    await expect(connect(new Map())).rejects.toThrow('HTTP 401');
    const ann = await t.user('rt-origin@example.com');
    await expect(connect(ann.cookies, 'https://evil.example')).rejects.toThrow('HTTP 403');
  });

  it('survives clients that reset the connection in the middle of the upgrade', async () => {
    const ann = await t.user('rt-reset@example.com');
    const port = (server.address() as { port: number }).port;
    // Resets spread over the first milliseconds land while the session is being looked up.
    for (let i = 0; i < 12; i++) {
      const socket = connectTcp(port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((r) => socket.once('connect', r));
      socket.write(
        [
          'GET /realtime/v1 HTTP/1.1',
          'Host: 127.0.0.1',
          'Upgrade: websocket',
          'Connection: Upgrade',
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
          'Sec-WebSocket-Version: 13',
          `Origin: ${TEST_APP_URL}`,
          `Cookie: ${[...ann.cookies].map(([k, v]) => `${k}=${v}`).join('; ')}`,
          '',
          '',
        ].join('\r\n'),
      );
      await new Promise((r) => setTimeout(r, i * 2));
      socket.resetAndDestroy();
    }
    await new Promise((r) => setTimeout(r, 300));
    const tab = await connect(ann.cookies);
    tab.ws.close();
  });

  it('answers the client heartbeat', async () => {
    const ann = await t.user('rt-heartbeat@example.com');
    const tab = await connect(ann.cookies);
    tab.ws.send(JSON.stringify({ type: 'heartbeat' }));
    await eventually(() => tab.heard.some((m) => m.type === 'heartbeat_ack'));
    tab.ws.close();
  });

  it('delivers changes made through another server instance on the same database', async () => {
    const other = await startTestApp({ database: t.database });
    try {
      const ann = await t.user('rt-multi@example.com');
      const tab = await connect(ann.cookies);
      const viaOther = other.client(ann.ip);
      for (const [k, v] of ann.cookies) viaOther.cookies.set(k, v);
      const conv = (await viaOther.post<Conversation>('/rest/v1/conversations', {})).body;
      await eventually(() => tab.heard.some((m) => m.change?.id === conv.id));
      tab.ws.close();
    } finally {
      await other.close();
    }
  });

  it("closes a suspended user's open sockets at once and refuses them afterwards", async () => {
    const admin = await t.user('rt-admin@example.com');
    await t.database.db.execute(
      sql`update profiles set role = 'super_admin' where id = ${admin.id}`,
    );
    const victim = await t.user('rt-victim@example.com');
    const bystander = await t.user('rt-bystander@example.com');
    const victimTab = await connect(victim.cookies);
    const bystanderTab = await connect(bystander.cookies);

    const res = await admin.patch(`/rest/v1/admin/users/${victim.id}`, { suspended: true });
    expect(res.status).toBe(200);
    expect(await victimTab.closed).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(victimTab.heard.map((m) => m.type)).toContain('session_ended');
    await expect(connect(victim.cookies)).rejects.toThrow('HTTP 401');

    await new Promise((r) => setTimeout(r, 100));
    expect(bystanderTab.ws.readyState).toBe(WebSocket.OPEN);
    expect(bystanderTab.heard.map((m) => m.type)).not.toContain('session_ended');
    bystanderTab.ws.close();
  });

  it("closes the sockets of a session that signs out, and only that session's", async () => {
    const phone = await t.user('rt-signout@example.com');
    const laptop = t.client();
    expect((await laptop.signIn('rt-signout@example.com')).status).toBe(200);
    const phoneTab = await connect(phone.cookies);
    const laptopTab = await connect(laptop.cookies);

    expect((await phone.post('/auth/v1/sign-out')).status).toBe(200);
    expect(await phoneTab.closed).toBe(SESSION_ENDED_CLOSE_CODE);
    expect(phoneTab.heard.map((m) => m.type)).toContain('session_ended');

    // The laptop is still signed in: its socket stays open and hears the account's changes.
    const conv = (await laptop.post<Conversation>('/rest/v1/conversations', { title: 'Still' }))
      .body;
    await eventually(() => laptopTab.heard.some((m) => m.change?.id === conv.id));
    expect(laptopTab.ws.readyState).toBe(WebSocket.OPEN);
    expect(laptopTab.heard.map((m) => m.type)).not.toContain('session_ended');
    laptopTab.ws.close();
  });
});
