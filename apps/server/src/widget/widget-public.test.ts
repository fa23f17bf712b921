import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { KnowledgeBase, KnowledgeDocument } from '@chorus/shared/api/knowledge';
import {
  widgetLimits,
  widgetUnavailableMessage,
  type PublicWidgetConfig,
  type VisitorSession,
  type WidgetStreamEvent,
} from '@chorus/shared/api/widgets';
import {
  widgetMessages,
  widgets,
  widgetUsageDays,
  widgetVisitors,
  widgetVisitorSessions,
} from '../db/schema/index.ts';
import { loadWebAssets } from '../http/static.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';
import { replyFailedMessage } from './reply.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };
type Conversation = {
  id: string;
  title: string;
  message_count: number;
  visitor: { id: string; external_id: string | null; signed: boolean };
  messages: { role: string; content: string; status: string; sources: unknown[] }[];
};
type WidgetRow = typeof widgets.$inferSelect & { secret: string };

const HOST = 'https://shop.example.com';
const EMBED_HTML =
  '<!doctype html><html><head><script>window.chorusEmbed=1</script><script type="module" src="/assets/embed-x1.js"></script></head><body><div id="root"></div></body></html>';
const LOADER = 'window.ChorusWidget={identify(){}};';

let t: TestApp;
let webDir: string;
let ann: Client;
let bob: Client;
let helper: Agent;
let handbookAi: CustomAi;

const alnum = () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(20), (b) => letters[b % letters.length]).join('');
};

/** A widget row as the owner's API would store it, with a known secret. */
const makeWidget = async (
  owner: { id: string },
  fields: Partial<typeof widgets.$inferInsert> = {},
): Promise<WidgetRow> => {
  const secret = `wsk_${randomBytes(24).toString('base64url')}`;
  const [row] = await t.db
    .insert(widgets)
    .values({
      public_id: `wgt_${alnum()}`,
      user_id: owner.id,
      name: 'Help desk',
      agent_id: helper.id,
      allowed_origins: [HOST],
      appearance: {
        title: 'Ask us',
        color: '#112233',
        greeting: 'Hello!',
        position: 'bottom-left',
      },
      messages_per_visitor_hour: 20,
      daily_tokens: 200_000,
      monthly_tokens: 2_000_000,
      max_reply_tokens: 800,
      secret_sealed: t.deps.box.seal(secret),
      secret_hint: secret.slice(0, 8),
      ...fields,
    })
    .returning();
  return { ...row!, secret };
};

const eventsOf = (sse: string): WidgetStreamEvent[] =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as WidgetStreamEvent);

const replyText = (events: WidgetStreamEvent[]) =>
  events.map((e) => (e.type === 'delta' ? e.text : '')).join('');

/** A visitor's browser: the iframe's calls, same-origin with the app, no cookie of its own. */
const visitor = (embedder: string = HOST, ip?: string) => {
  const c = t.client(ip);
  const state = { session: undefined as string | undefined };
  const headers = (extra: Record<string, string> = {}) => ({
    'x-chorus-embedder': embedder,
    ...(state.session && { authorization: `Bearer ${state.session}` }),
    ...extra,
  });
  return {
    client: c,
    state,
    async start(w: { public_id: string }, body: Record<string, unknown> = {}) {
      const res = await c.request<VisitorSession & Refusal>(
        'POST',
        `/widget/v1/${w.public_id}/session`,
        body,
        { 'x-chorus-embedder': embedder },
      );
      if (res.status === 200) state.session = res.body.session;
      return res;
    },
    async chat(
      w: { public_id: string },
      message: string,
      conversationId: string | null = null,
      extra: Record<string, string> = {},
    ) {
      const res = await c.send('POST', `/widget/v1/${w.public_id}/chat`, {
        headers: headers({ 'content-type': 'application/json', ...extra }),
        body: JSON.stringify({ message, conversation_id: conversationId }),
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        events: res.status === 200 ? eventsOf(text) : [],
        json: res.status === 200 ? undefined : (JSON.parse(text) as Refusal),
      };
    },
    read(w: { public_id: string }, id: string) {
      return c.request<Conversation & Refusal>(
        'GET',
        `/widget/v1/${w.public_id}/conversations/${id}`,
        undefined,
        headers(),
      );
    },
  };
};

const conversationIdOf = (events: WidgetStreamEvent[]) => {
  const start = events.find((e) => e.type === 'start');
  if (start?.type !== 'start') throw new Error(`no start event in ${JSON.stringify(events)}`);
  return start.conversation_id;
};

const sign = (claims: Record<string, unknown>, secret: string, exp: string | number = '1h') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));

const withKey = async (email: string) => {
  const u = await t.user(email);
  const res = await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' });
  expect(res.status).toBe(200);
  return u;
};

beforeAll(async () => {
  webDir = mkdtempSync(path.join(tmpdir(), 'chorus-web-'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Chorus</title>');
  writeFileSync(path.join(webDir, 'embed.html'), EMBED_HTML);
  writeFileSync(path.join(webDir, 'embed.js'), LOADER);
  writeFileSync(path.join(webDir, 'embed.js.gz'), gzipSync(LOADER));
  t = await startTestApp({ providerSim: true, jobs: true, web: loadWebAssets(webDir)! });
  ann = await withKey('widget-ann@example.com');
  // No key: a widget of Bob's cannot answer on his account.
  bob = await t.user('widget-bob@example.com');
  const agent = await ann.post<Agent>('/rest/v1/agents', {
    name: 'Shop Helper',
    instructions: 'Help shoppers.',
    provider: 'openai',
    tools: [
      { tool: 'builtin:calculator', approval: 'never' },
      { tool: 'builtin:current_datetime', approval: 'always' },
      { tool: 'builtin:web_fetch', approval: 'never' },
    ],
  });
  expect(agent.status).toBe(201);
  helper = agent.body;

  const base = await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', { name: 'Returns' });
  expect(base.status).toBe(201);
  const data = new FormData();
  data.append(
    'files',
    new Blob([
      '# Returns\n\nShoes may be returned within 60 days when unworn. Refunds go to the card used. ' +
        'Our staff check every pair by hand, and a refund reaches the card in three to five ' +
        'working days; a gift card is refunded as store credit instead. Sale items are final ' +
        'unless faulty. Internal note for the desk: the override code is OWNER-ONLY-TAIL-7731.\n',
    ]),
    'returns.md',
  );
  const uploaded = await ann.send('POST', `/rest/v1/knowledge-bases/${base.body.id}/documents`, {
    body: data,
  });
  expect(uploaded.status).toBeLessThan(300);
  await waitFor(async () => {
    const docs = await ann.get<{ documents: KnowledgeDocument[] }>(
      `/rest/v1/knowledge-bases/${base.body.id}/documents`,
    );
    return docs.body.documents.every((d) => d.status === 'ready');
  }, 20_000);
  const ai = await ann.post<CustomAi>('/rest/v1/custom-ais', {
    name: 'Returns desk',
    provider: 'openai',
    system_prompt: 'Answer questions about returns.',
    knowledge_base_ids: [base.body.id],
  });
  expect(ai.status).toBe(201);
  handbookAi = ai.body;
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe('visitor sessions', () => {
  it('mints a session the client cannot choose, and resumes it', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    const made = await v.start(w, { session: 'A'.repeat(43) });
    expect(made.status).toBe(200);
    expect(made.body.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.body.session).not.toBe('A'.repeat(43));
    expect(made.body.visitor).toEqual({ name: null, signed: false });
    expect(made.body.config).toEqual({
      public_id: w.public_id,
      title: 'Ask us',
      color: '#112233',
      greeting: 'Hello!',
      position: 'bottom-left',
      require_signed_visitors: false,
    });
    expect(made.body.conversations).toEqual([]);
    expect(made.headers.get('set-cookie')).toBeNull();
    expect(made.headers.get('cache-control')).toBe('no-store');

    const chat = await v.chat(w, 'Hi there');
    expect(chat.status).toBe(200);
    const resumed = await v.start(w, { session: made.body.session });
    expect(resumed.status).toBe(200);
    expect(resumed.body.session).toBe(made.body.session);
    expect(resumed.body.conversations.map((c) => c.id)).toEqual([conversationIdOf(chat.events)]);
    expect(resumed.body.conversations[0]!.title).toBe('Hi there');

    // A made-up bearer, or none, is no session.
    const stranger = visitor();
    stranger.state.session = 'A'.repeat(43);
    const refused = await stranger.chat(w, 'Hello?');
    expect(refused.status).toBe(401);
    expect(refused.json!.code).toBe('widgets:session_invalid');
    stranger.state.session = undefined;
    expect((await stranger.chat(w, 'Hello?')).status).toBe(401);
  });

  it('follows a signed visitor across sessions, and refuses every bad token alike', async () => {
    const w = await makeWidget(ann);
    const claims = { widget: w.public_id, visitor_id: 'customer-17', name: 'Ada' };
    const phone = visitor();
    const first = await phone.start(w, { visitor_token: await sign(claims, w.secret) });
    expect(first.status).toBe(200);
    expect(first.body.visitor).toEqual({ name: 'Ada', signed: true });
    const chat = await phone.chat(w, 'Where is my order?');
    expect(chat.status).toBe(200);
    const id = conversationIdOf(chat.events);

    const laptop = visitor();
    const second = await laptop.start(w, { visitor_token: await sign(claims, w.secret) });
    expect(second.status).toBe(200);
    expect(second.body.session).not.toBe(first.body.session);
    expect(second.body.conversations.map((c) => c.id)).toEqual([id]);
    const read = await laptop.read(w, id);
    expect(read.status).toBe(200);
    expect(read.body.visitor).toMatchObject({ external_id: 'customer-17', signed: true });
    expect(read.body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    const other = await makeWidget(ann);
    const now = Math.floor(Date.now() / 1000);
    const none = (payload: Record<string, unknown>) =>
      [{ alg: 'none', typ: 'JWT' }, payload]
        .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
        .join('.') + '.';
    const bad = [
      await sign(claims, 'not-the-secret'),
      await sign(claims, w.secret, now - 3600),
      await sign({ ...claims, widget: other.public_id }, w.secret),
      await sign(claims, other.secret),
      await sign(claims, w.secret, now + 48 * 3600),
      await sign({ ...claims, visitor_id: 42 }, w.secret),
      await sign({ ...claims, visitor_id: 'x'.repeat(201) }, w.secret),
      await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS512' })
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(w.secret)),
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(
        new TextEncoder().encode(w.secret), // no exp
      ),
      none({ ...claims, exp: now + 600 }),
      'garbage',
    ];
    for (const token of bad) {
      const res = await visitor().start(w, { visitor_token: token });
      expect(res.status, token).toBe(401);
      expect(res.body.code, token).toBe('widgets:bad_visitor_token');
    }
  });

  it('refuses unsigned visitors when the widget requires signed ones', async () => {
    const w = await makeWidget(ann, { require_signed_visitors: true });
    const v = visitor();
    const refused = await v.start(w);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('widgets:signed_visitor_required');
    const ok = await v.start(w, {
      visitor_token: await sign({ widget: w.public_id, visitor_id: 'member-1' }, w.secret),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.config.require_signed_visitors).toBe(true);
    // Its session goes on without the token.
    expect((await v.start(w, { session: ok.body.session })).body.session).toBe(ok.body.session);
  });

  it('checks the embedding site against the list: exact origins and *. subdomains', async () => {
    const w = await makeWidget(ann, {
      allowed_origins: [HOST, 'https://*.example.org', 'http://localhost:5173'],
    });
    const cases: [string, number][] = [
      [HOST, 200],
      [`${HOST}/checkout?x=1`, 200],
      ['https://a.example.org', 200],
      ['https://a.b.example.org', 200],
      ['http://localhost:5173', 200],
      [TEST_APP_URL, 200],
      ['https://example.org', 403],
      ['http://shop.example.com', 403],
      ['https://shop.example.com:8443', 403],
      ['https://evil.example.net', 403],
      ['https://shop.example.com.evil.net', 403],
      ['null', 403],
      ['', 403],
    ];
    for (const [embedder, status] of cases) {
      const res = await visitor(embedder).start(w);
      expect(res.status, embedder).toBe(status);
      if (status === 403) expect(res.body.code).toBe('widgets:origin_not_allowed');
    }
    // A call made from another site's page names it in Origin: that must be allowed too.
    const fromElsewhere = await t.client().request(
      'POST',
      `/widget/v1/${w.public_id}/session`,
      {},
      {
        origin: 'https://evil.example.net',
        'x-chorus-embedder': HOST,
      },
    );
    expect(fromElsewhere.status).toBe(403);
  });

  it('lets no site but the app itself use a widget whose list is empty', async () => {
    const w = await makeWidget(ann, { allowed_origins: [] });
    expect((await visitor(HOST).start(w)).status).toBe(403);
    expect((await visitor('https://anything.example').start(w)).status).toBe(403);
    expect((await visitor(TEST_APP_URL).start(w)).status).toBe(200);
  });

  it('answers the loader’s config with CORS for allowed origins only', async () => {
    const w = await makeWidget(ann);
    const allowed = await t
      .client()
      .request<PublicWidgetConfig>('GET', `/widget/v1/${w.public_id}/config`, undefined, {
        origin: HOST,
      });
    expect(allowed.status).toBe(200);
    expect(allowed.body.title).toBe('Ask us');
    expect(allowed.headers.get('access-control-allow-origin')).toBe(HOST);
    expect(allowed.headers.get('vary')).toContain('Origin');
    const other = await t.client().request('GET', `/widget/v1/${w.public_id}/config`, undefined, {
      origin: 'https://evil.example.net',
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('vary')).toContain('Origin');
  });
});

describe('replies', () => {
  it('streams a reply on the owner’s account and stores the turn and its usage', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    const first = await v.chat(w, 'What do you sell?');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toContain('text/event-stream');
    expect(first.headers.get('set-cookie')).toBeNull();
    expect(first.events[0]).toMatchObject({ type: 'start' });
    expect(first.events.at(-1)).toEqual({ type: 'done' });
    const text = replyText(first.events);
    expect(text).toContain('What do you sell?');
    const id = conversationIdOf(first.events);

    const second = await v.chat(w, 'And shoes?', id);
    expect(second.status).toBe(200);
    expect(conversationIdOf(second.events)).toBe(id);
    // The history went to the model.
    const sent = JSON.stringify(t.sim.requests.at(-1)!.body);
    expect(sent).toContain('What do you sell?');
    expect(sent).toContain('Help shoppers.');

    const read = await v.read(w, id);
    expect(read.status).toBe(200);
    expect(read.body.message_count).toBe(4);
    expect(read.body.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'done'],
      ['user', 'done'],
      ['assistant', 'done'],
    ]);
    expect(read.body.messages[1]!.content).toBe(text);
    const [usage] = await t.db
      .select()
      .from(widgetUsageDays)
      .where(eq(widgetUsageDays.widget_id, w.id));
    expect(usage).toMatchObject({ messages: 2 });
    expect(usage!.input_tokens + usage!.output_tokens).toBeGreaterThan(0);
  });

  it('cites the knowledge a custom AI answers from, and stores the sources', async () => {
    const w = await makeWidget(ann, { agent_id: null, custom_ai_id: handbookAi.id });
    const v = visitor();
    await v.start(w);
    const res = await v.chat(w, 'Can shoes be returned?');
    expect(res.status).toBe(200);
    const sources = res.events.find((e) => e.type === 'sources');
    expect(sources).toMatchObject({
      type: 'sources',
      sources: [expect.objectContaining({ document: 'returns.md' })],
    });
    expect(JSON.stringify(t.sim.requests.at(-1)!.body)).toContain('within 60 days');
    const read = await v.read(w, conversationIdOf(res.events));
    expect(read.body.messages[1]!.sources).toEqual(
      sources?.type === 'sources' ? sources.sources : [],
    );
  });

  it('gives visitors a document’s name and a short quote, never the whole passage', async () => {
    const w = await makeWidget(ann, { agent_id: null, custom_ai_id: handbookAi.id });
    const v = visitor();
    await v.start(w);
    const res = await v.chat(w, 'Can shoes be returned?');
    // The model reads the whole passage; the visitor gets a quote of it.
    expect(JSON.stringify(t.sim.requests.at(-1)!.body)).toContain('OWNER-ONLY-TAIL-7731');
    const event = res.events.find((e) => e.type === 'sources');
    const sources = event?.type === 'sources' ? event.sources : [];
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source.document).toBe('returns.md');
      expect(source.text.length).toBeLessThanOrEqual(widgetLimits.sourceQuoteChars);
      expect(source.text).toMatch(/…$/);
    }
    const read = await v.read(w, conversationIdOf(res.events));
    expect(JSON.stringify(read.body)).not.toContain('OWNER-ONLY-TAIL-7731');
  });

  it('sends no sources at all when the owner turned them off', async () => {
    const w = await makeWidget(ann, { agent_id: null, custom_ai_id: handbookAi.id });
    const v = visitor();
    await v.start(w);
    const before = await v.chat(w, 'Can shoes be returned?');
    expect(before.events.some((e) => e.type === 'sources')).toBe(true);
    const off = await ann.patch(`/rest/v1/widgets/${w.id}`, { show_sources: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ show_sources: false });

    const res = await v.chat(w, 'And sandals?', conversationIdOf(before.events));
    expect(res.status).toBe(200);
    expect(res.events.some((e) => e.type === 'sources')).toBe(false);
    expect(replyText(res.events)).not.toBe('');
    // Replies from before are read without their sources too.
    const read = await v.read(w, conversationIdOf(before.events));
    expect(read.body.messages.every((m) => m.sources.length === 0)).toBe(true);
    // Another user cannot turn them back on.
    expect((await bob.patch(`/rest/v1/widgets/${w.id}`, { show_sources: true })).status).toBe(404);
  });

  it('offers only the allowed tools that need no approval', async () => {
    const w = await makeWidget(ann, {
      allowed_tools: ['builtin:calculator', 'builtin:current_datetime'],
    });
    const v = visitor();
    await v.start(w);
    const before = t.sim.requests.length;
    const res = await v.chat(
      w,
      'Sum and time [sim:tool calculator {"expression":"6*7"}] [sim:tool current_datetime {"time_zone":"UTC"}]',
    );
    expect(res.status).toBe(200);
    const offered = t.sim.requests
      .slice(before)
      .map((r) =>
        ((r.body as { tools?: { name?: string; function?: { name: string } }[] }).tools ?? []).map(
          (tool) => tool.name ?? tool.function?.name,
        ),
      );
    expect(offered.length).toBeGreaterThan(0);
    for (const names of offered) expect(names).toEqual(['calculator']);
    expect(replyText(res.events)).toContain('Tool calculator returned');
    expect(res.events.at(-1)).toEqual({ type: 'done' });
  });

  it('tells the visitor plainly when the provider fails, and stores the reply as failed', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    const res = await v.chat(w, 'Break please [sim:fail-after 2]');
    expect(res.status).toBe(200);
    const last = res.events.at(-1)!;
    expect(last).toMatchObject({ type: 'error', message: replyFailedMessage });
    const read = await v.read(w, conversationIdOf(res.events));
    expect(read.body.messages[1]).toMatchObject({ status: 'failed' });
    expect(read.body.messages[1]!.content).toContain(replyFailedMessage);
    expect(JSON.stringify(res.events)).not.toContain('sk-openai');
  });

  it('keeps what arrived when the visitor leaves mid-reply, counted once', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    const res = await t.app.request(`/widget/v1/${w.public_id}/chat`, {
      method: 'POST',
      headers: {
        origin: TEST_APP_URL,
        'x-forwarded-for': v.client.ip,
        'content-type': 'application/json',
        'x-chorus-embedder': HOST,
        authorization: `Bearer ${v.state.session}`,
      },
      body: JSON.stringify({ message: 'Tell me slowly [sim:hang 2]' }),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let sse = '';
    while (eventsOf(sse).filter((e) => e.type === 'delta').length < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      sse += decoder.decode(value, { stream: true });
    }
    const arrived = replyText(eventsOf(sse));
    expect(arrived).not.toBe('');
    await reader.cancel();
    const id = conversationIdOf(eventsOf(sse));
    const reply = async () =>
      (await t.db.select().from(widgetMessages).where(eq(widgetMessages.conversation_id, id))).find(
        (m) => m.role === 'assistant',
      )!;
    await waitFor(async () => (await reply()).status !== 'streaming');
    expect(await reply()).toMatchObject({ status: 'failed', content: arrived });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const usage = await t.db
      .select()
      .from(widgetUsageDays)
      .where(eq(widgetUsageDays.widget_id, w.id));
    expect(usage.map((u) => u.messages)).toEqual([1]);
  });

  it('answers unavailable when the owner’s account cannot pay for the reply', async () => {
    const w = await makeWidget(bob, {
      agent_id: null,
      custom_ai_id: (
        await bob.post<CustomAi>('/rest/v1/custom-ais', { name: 'Keyless', provider: 'openai' })
      ).body.id,
    });
    const v = visitor();
    await v.start(w);
    const res = await v.chat(w, 'Hello');
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 'widgets:unavailable', error: widgetUnavailableMessage });
  });

  it('refuses once the budget is spent, and tells the owner once', async () => {
    const w = await makeWidget(ann, { daily_tokens: 1 });
    const v = visitor();
    await v.start(w);
    expect((await v.chat(w, 'First question')).status).toBe(200);
    const [a, b] = await Promise.all([v.chat(w, 'Second'), v.chat(w, 'Third')]);
    for (const res of [a, b]) {
      expect(res.status).toBe(403);
      expect(res.json).toEqual({
        code: 'widgets:budget_exhausted',
        error: widgetUnavailableMessage,
      });
    }
    await waitFor(async () => (await t.outboxFor(ann.email, 'widget_budget')).length > 0);
    expect((await v.chat(w, 'Fourth')).status).toBe(403);
    const mails = await t.outboxFor(ann.email, 'widget_budget');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Help desk');
    expect(mails[0]!.html).toContain('/agent-embed-chat');
    const [stored] = await t.db.select().from(widgets).where(eq(widgets.id, w.id));
    expect(stored!.budget_notice_period).toBe(new Date().toISOString().slice(0, 10));
  });

  it('limits messages per visitor per hour with a Retry-After', async () => {
    const w = await makeWidget(ann, { messages_per_visitor_hour: 2 });
    const v = visitor();
    await v.start(w);
    expect((await v.chat(w, 'One')).status).toBe(200);
    expect((await v.chat(w, 'Two')).status).toBe(200);
    const third = await v.chat(w, 'Three');
    expect(third.status).toBe(429);
    expect(third.json!.code).toBe('widgets:rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another visitor of the same widget has an hour of their own.
    const other = visitor();
    await other.start(w);
    expect((await other.chat(w, 'One')).status).toBe(200);
  });

  it('refuses a blocked visitor', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    const started = await v.start(w);
    const res = await v.chat(w, 'Hi');
    const read = await v.read(w, conversationIdOf(res.events));
    await t.db
      .update(widgetVisitors)
      .set({ blocked_at: new Date() })
      .where(eq(widgetVisitors.id, read.body.visitor.id));
    const chat = await v.chat(w, 'Again');
    expect(chat.status).toBe(403);
    expect(chat.json!.code).toBe('widgets:visitor_blocked');
    const again = await v.start(w, { session: started.body.session });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('widgets:visitor_blocked');
  });
});

describe('a blocked anonymous visitor', () => {
  /** A visitor who chatted once, then blocked by the owner through the owner's API. */
  const blockedVisitor = async (w: WidgetRow, ip?: string) => {
    const v = visitor(HOST, ip);
    const started = await v.start(w);
    const res = await v.chat(w, 'Hi');
    const { body } = await v.read(w, conversationIdOf(res.events));
    const blocked = await ann.post(`/rest/v1/widgets/${w.id}/visitors/${body.visitor.id}/block`);
    expect(blocked.status).toBe(200);
    return { v, id: body.visitor.id, session: started.body.session };
  };

  it('stays out: with the old session, however old, and starting afresh from the same network', async () => {
    const w = await makeWidget(ann);
    // Someone else from the blocked visitor's address, already chatting, and someone elsewhere.
    const ip = '198.18.7.1';
    const sameAddress = visitor(HOST, ip);
    expect((await sameAddress.start(w)).status).toBe(200);
    const neighbour = visitor();
    expect((await neighbour.start(w)).status).toBe(200);
    const { v, id, session } = await blockedVisitor(w, ip);

    const chat = await v.chat(w, 'Again');
    expect(chat.status).toBe(403);
    expect(chat.json!.code).toBe('widgets:visitor_blocked');
    const resumed = await v.start(w, { session });
    expect(resumed.status).toBe(403);
    expect(resumed.body.code).toBe('widgets:visitor_blocked');

    // Storage cleared: no session at all, same address.
    const fresh = await visitor(HOST, v.client.ip).start(w);
    expect(fresh.status).toBe(403);
    expect(fresh.body.code).toBe('widgets:visitor_blocked');
    // An IPv4-mapped form of the same address is the same network.
    const mapped = await visitor(HOST, `::ffff:${v.client.ip}`).start(w);
    expect(mapped.status).toBe(403);

    // A session that expired long ago is still refused as blocked, not replaced.
    await t.db
      .update(widgetVisitorSessions)
      .set({ expires_at: new Date(Date.now() - 86_400_000) })
      .where(eq(widgetVisitorSessions.visitor_id, id));
    const stale = await v.start(w, { session });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe('widgets:visitor_blocked');

    // Others are not touched: one started earlier on the same address, one from elsewhere,
    // and a signed visitor on the same address.
    expect((await sameAddress.chat(w, 'Still here')).status).toBe(200);
    expect((await neighbour.chat(w, 'Hello')).status).toBe(200);
    const signed = await visitor(HOST, v.client.ip).start(w, {
      visitor_token: await sign({ widget: w.public_id, visitor_id: 'cust-9' }, w.secret),
    });
    expect(signed.status).toBe(200);
    // And another widget of the owner knows nothing of the block.
    expect((await visitor(HOST, v.client.ip).start(await makeWidget(ann))).status).toBe(200);
  });

  it('lets the network in again after a day, and the visitor in again once unblocked', async () => {
    const w = await makeWidget(ann);
    const { v, id, session } = await blockedVisitor(w);
    await t.db
      .update(widgetVisitors)
      .set({ blocked_at: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(widgetVisitors.id, id));
    expect((await visitor(HOST, v.client.ip).start(w)).status).toBe(200);
    // The blocked visitor's own session is still refused.
    expect((await v.start(w, { session })).status).toBe(403);

    const unblocked = await ann.post(`/rest/v1/widgets/${w.id}/visitors/${id}/unblock`);
    expect(unblocked.status).toBe(200);
    const back = await v.start(w, { session });
    expect(back.status).toBe(200);
    expect((await v.chat(w, 'Thanks')).status).toBe(200);
  });

  it('keeps no client address, only a keyed hash of it', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    const rows = await t.db.select().from(widgetVisitors).where(eq(widgetVisitors.widget_id, w.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.address_hash).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(rows)).not.toContain(v.client.ip);
  });

  it('cannot be blocked or unblocked by anyone but the widget’s owner', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    const res = await v.chat(w, 'Hi');
    const { body } = await v.read(w, conversationIdOf(res.events));
    for (const action of ['block', 'unblock']) {
      const other = await bob.post(
        `/rest/v1/widgets/${w.id}/visitors/${body.visitor.id}/${action}`,
      );
      expect(other.status).toBe(404);
    }
    expect((await v.chat(w, 'Still fine')).status).toBe(200);
  });
});

describe('isolation', () => {
  it('keeps each visitor to their own conversations, and each session to its widget', async () => {
    const a = await makeWidget(ann);
    const b = await makeWidget(ann);
    const ada = visitor();
    const ben = visitor();
    await ada.start(a);
    await ben.start(a);
    const adaChat = await ada.chat(a, 'Ada’s secret question');
    const adaConversation = conversationIdOf(adaChat.events);

    // Another visitor of the same widget: not found, to read or to write to.
    const read = await ben.read(a, adaConversation);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('widgets:conversation_not_found');
    const write = await ben.chat(a, 'Let me in', adaConversation);
    expect(write.status).toBe(404);
    expect(write.json!.code).toBe('widgets:conversation_not_found');
    expect((await ben.start(a, { session: ben.state.session })).body.conversations).toEqual([]);

    // Ada's session on another widget is no session there.
    const crossRead = await ada.read(b, adaConversation);
    expect(crossRead.status).toBe(401);
    expect(crossRead.body.code).toBe('widgets:session_invalid');
    const crossChat = await ada.chat(b, 'Hello');
    expect(crossChat.status).toBe(401);
    // And a conversation of another widget is not found through this one.
    const carol = visitor();
    await carol.start(b);
    const carolChat = await carol.chat(b, 'Carol here');
    expect((await ada.read(a, conversationIdOf(carolChat.events))).status).toBe(404);
    expect((await ada.read(a, 'not-a-uuid')).status).toBe(404);
    // Nothing of Ada's reached the others.
    const [row] = await t.db
      .select()
      .from(widgetMessages)
      .where(eq(widgetMessages.content, 'Ada’s secret question'));
    expect(row!.widget_id).toBe(a.id);
  });

  it('stops a widget at once when it is switched off, loses its agent, or is removed', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    expect((await v.chat(w, 'Hello')).status).toBe(200);

    await t.db.update(widgets).set({ enabled: false }).where(eq(widgets.id, w.id));
    const off = await v.chat(w, 'Still there?');
    expect(off.status).toBe(404);
    expect(off.json).toEqual({ code: 'widgets:unavailable', error: widgetUnavailableMessage });
    expect((await visitor().start(w)).body.code).toBe('widgets:unavailable');
    expect((await t.client().request('GET', `/widget/v1/${w.public_id}/config`)).status).toBe(404);

    await t.db.update(widgets).set({ enabled: true, agent_id: null }).where(eq(widgets.id, w.id));
    expect((await v.chat(w, 'Agent?')).json!.code).toBe('widgets:unavailable');

    await t.db.delete(widgets).where(eq(widgets.id, w.id));
    const gone = await v.chat(w, 'Anyone?');
    expect(gone.status).toBe(404);
    expect(gone.json!.code).toBe('widgets:unavailable');
    expect((await visitor().start(w)).body.code).toBe('widgets:unavailable');
  });
});

describe('bad input', () => {
  it('refuses NUL, malformed and oversized bodies with a 400, never a 500', async () => {
    const w = await makeWidget(ann);
    const v = visitor();
    await v.start(w);
    const post = (url: string, body: string) =>
      v.client.request('POST', url, body, {
        'content-type': 'application/json',
        'x-chorus-embedder': HOST,
        authorization: `Bearer ${v.state.session}`,
      });
    const chatUrl = `/widget/v1/${w.public_id}/chat`;
    const sessionUrl = `/widget/v1/${w.public_id}/session`;
    const refusals = [
      [chatUrl, JSON.stringify({ message: 'hi\u0000there' }), 'request:invalid_text'],
      [chatUrl, '{not json', 'request:malformed_json'],
      [chatUrl, JSON.stringify({ message: '' }), 'bad_request:validation'],
      [chatUrl, JSON.stringify({ message: 'hi', extra: 1 }), 'bad_request:validation'],
      [chatUrl, JSON.stringify({ message: 'x'.repeat(4_001) }), 'bad_request:validation'],
      [
        chatUrl,
        JSON.stringify({ message: 'hi', conversation_id: 'nope' }),
        'bad_request:validation',
      ],
      [sessionUrl, JSON.stringify({ session: 'x'.repeat(300) }), 'bad_request:validation'],
      [sessionUrl, JSON.stringify({ visitor_token: 'a\u0000b' }), 'request:invalid_text'],
      [sessionUrl, '[]', 'bad_request:validation'],
    ] as const;
    for (const [url, body, code] of refusals) {
      const res = await post(url, body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect((res.body as Refusal).code, body.slice(0, 40)).toBe(code);
    }
    const huge = await post(chatUrl, JSON.stringify({ message: 'x'.repeat(70_000) }));
    expect(huge.status).toBe(413);
    const unknown = await t.client().get('/widget/v1/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
  });
});

describe('the embed page and the loader', () => {
  const directive = (csp: string | null, name: string) =>
    csp
      ?.split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `))
      ?.slice(name.length + 1)
      .split(' ');

  it('lets exactly the widget’s origins frame the page, and sets no cookie', async () => {
    const w = await makeWidget(ann, { allowed_origins: [HOST, 'https://*.example.org'] });
    // Sent with the owner's session cookie: the answer still sets none.
    expect(ann.cookies.size).toBeGreaterThan(0);
    const res = await ann.send('GET', `/embed/${w.public_id}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(EMBED_HTML);
    const csp = res.headers.get('content-security-policy');
    expect(directive(csp, 'frame-ancestors')).toEqual(["'self'", HOST, 'https://*.example.org']);
    expect(directive(csp, 'connect-src')).toEqual(["'self'"]);
    expect(directive(csp, 'default-src')).toEqual(["'self'"]);
    expect(directive(csp, 'base-uri')).toEqual(["'none'"]);
    expect(directive(csp, 'form-action')).toEqual(["'none'"]);
    const inline = `'sha256-${createHash('sha256').update('window.chorusEmbed=1').digest('base64')}'`;
    expect(directive(csp, 'script-src')).toEqual(["'self'", inline]);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');

    const empty = await makeWidget(ann, { allowed_origins: [] });
    const alone = await t.client().send('GET', `/embed/${empty.public_id}`);
    expect(directive(alone.headers.get('content-security-policy'), 'frame-ancestors')).toEqual([
      "'self'",
    ]);
    // An unknown widget gets the same page (it shows 'unavailable'), framed by the app alone.
    const unknown = await t.client().send('GET', '/embed/wgt_AAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(200);
    expect(directive(unknown.headers.get('content-security-policy'), 'frame-ancestors')).toEqual([
      "'self'",
    ]);
    // The app's own pages keep theirs.
    const app = await t.client().send('GET', '/chat');
    expect(directive(app.headers.get('content-security-policy'), 'frame-ancestors')).toEqual([
      "'self'",
    ]);
    expect(app.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('serves the loader compressed, cacheable for a while, to any site', async () => {
    const res = await t.client().send('GET', '/embed.js', {
      headers: { 'accept-encoding': 'gzip, deflate' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(LOADER);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toContain('javascript');
    const plain = await t.client().send('GET', '/embed.js', {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(await plain.text()).toBe(LOADER);
  });
});
