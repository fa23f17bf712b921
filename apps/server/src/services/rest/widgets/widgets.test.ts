import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Agent } from '@chorus/shared/api/agents';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import {
  widgetLimits,
  widgetPublicIdPattern,
  type CreateWidget,
  type Widget,
  type WidgetConversationBrief,
  type WidgetVisitor,
  type WidgetWithSecret,
} from '@chorus/shared/api/widgets';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  profiles,
  widgetConversations,
  widgetMessages,
  widgets,
  widgetUsageDays,
  widgetVisitors,
  widgetVisitorSessions,
} from '../../../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };
type Conversation = WidgetConversationBrief & {
  messages: { id: string; role: string; content: string; sources: unknown[]; status: string }[];
};
type SessionList = { items: WidgetConversationBrief[]; next_cursor: string | null };
type UsageDays = {
  days: {
    day: string;
    messages: number;
    input_tokens: number;
    output_tokens: number;
    visitors: number;
  }[];
};

const logLines: string[] = [];
let t: TestApp;
let root: Client;
let ann: Client;
let bob: Client;
let helper: Agent;
let pirate: CustomAi;
let bobsAgent: Agent;
let bobsAi: CustomAi;

const newAgent = async (who: Client, name: string) => {
  const res = await who.post<Agent>('/rest/v1/agents', {
    name,
    provider: 'openai',
    instructions: 'Help visitors.',
    tools: [
      { tool: 'builtin:calculator', approval: 'never' },
      { tool: 'builtin:current_datetime', approval: 'never' },
      { tool: 'builtin:web_fetch', approval: 'always' },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const newCustomAi = async (who: Client, name: string) => {
  const res = await who.post<CustomAi>('/rest/v1/custom-ais', {
    name,
    system_prompt: 'Answer as a pirate would.',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const widgetFor = (agentId: string, extra: Partial<CreateWidget> = {}) => ({
  name: 'Support',
  target: { agent_id: agentId },
  appearance: { title: 'Ask us' },
  ...extra,
});

const create = async (who: Client, body: unknown) => {
  const res = await who.post<WidgetWithSecret>('/rest/v1/widgets', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const utcToday = async (offsetDays = 0): Promise<string> => {
  const result = await t.db.execute(
    sql`select to_char((now() at time zone 'UTC')::date + ${offsetDays}::int, 'YYYY-MM-DD') as day`,
  );
  return (result as unknown as { rows: { day: string }[] }).rows[0]!.day;
};

const addVisitor = async (
  widgetId: string,
  fields: Partial<typeof widgetVisitors.$inferInsert> = {},
) => {
  const [row] = await t.db
    .insert(widgetVisitors)
    .values({ widget_id: widgetId, ...fields })
    .returning();
  return row!;
};

/** A conversation with its messages, each a second after the one before. */
const addConversation = async (
  widgetId: string,
  visitorId: string,
  updatedAt: Date,
  messages: { role: 'user' | 'assistant'; content: string; sources?: unknown[] }[],
) => {
  const [conversation] = await t.db
    .insert(widgetConversations)
    .values({
      widget_id: widgetId,
      visitor_id: visitorId,
      title: messages[0]?.content.slice(0, 40) ?? '',
      message_count: messages.length,
      input_tokens: 10 * messages.length,
      output_tokens: 20 * messages.length,
      created_at: new Date(updatedAt.getTime() - 60_000),
      updated_at: updatedAt,
    })
    .returning();
  let at = updatedAt.getTime() - messages.length * 1000;
  for (const m of messages) {
    at += 1000;
    await t.db.insert(widgetMessages).values({
      conversation_id: conversation!.id,
      widget_id: widgetId,
      role: m.role,
      content: m.content,
      sources: m.sources ?? [],
      created_at: new Date(at),
    });
  }
  return conversation!;
};

beforeAll(async () => {
  t = await startTestApp({
    env: { LOG_LEVEL: 'trace' },
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
  // The first account is the super admin: it must see no one else's widget either.
  root = await t.user('widgets-root@example.com');
  ann = await t.user('widgets-ann@example.com');
  bob = await t.user('widgets-bob@example.com');
  helper = await newAgent(ann, 'Helper');
  pirate = await newCustomAi(ann, 'Pirate');
  bobsAgent = await newAgent(bob, 'Bobs helper');
  bobsAi = await newCustomAi(bob, 'Bobs pirate');
});
afterAll(() => t.close());

describe('widgets: the owner’s side', () => {
  it('makes a widget, shows its secret once and keeps it only sealed', async () => {
    const made = await create(
      ann,
      widgetFor(helper.id, {
        allowed_origins: [
          'HTTPS://Example.COM:443',
          'https://example.com',
          'http://localhost:5173',
          'http://LOCALHOST:80',
          'https://*.Example.org',
        ],
        allowed_tools: ['builtin:calculator'],
      }),
    );
    expect(made.public_id).toMatch(widgetPublicIdPattern);
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(made.secret_hint).toBe(`${made.secret.slice(0, 10)}…`);
    expect(made.snippet).toBe(
      `<script src="${TEST_APP_URL}/embed.js" data-widget="${made.public_id}" async></script>`,
    );
    expect(made.allowed_origins).toEqual([
      'https://example.com',
      'http://localhost:5173',
      'http://localhost',
      'https://*.example.org',
    ]);
    expect(made).toMatchObject({
      name: 'Support',
      target: { kind: 'agent', id: helper.id, name: 'Helper' },
      appearance: { title: 'Ask us', color: '#4f46e5', greeting: '', position: 'bottom-right' },
      budget: {
        messages_per_visitor_hour: widgetLimits.defaultMessagesPerVisitorHour,
        daily_tokens: widgetLimits.defaultDailyTokens,
        monthly_tokens: widgetLimits.defaultMonthlyTokens,
        max_reply_tokens: widgetLimits.defaultMaxReplyTokens,
      },
      require_signed_visitors: false,
      allowed_tools: ['builtin:calculator'],
      show_sources: true,
      enabled: true,
      usage: { tokens_today: 0, tokens_this_month: 0, messages_today: 0 },
    });

    // Stored sealed: no clear copy anywhere in the row.
    const [row] = await t.db.select().from(widgets).where(eq(widgets.id, made.id));
    expect(JSON.stringify(row)).not.toContain(made.secret);
    expect(JSON.stringify(row)).not.toContain(made.secret.slice('whsec_'.length));
    expect(row!.secret_sealed).toMatch(/^v1\./);
    expect(t.deps.box.open(row!.secret_sealed)).toBe(made.secret);

    // Read back: the hint only, never the secret or its sealed form.
    const read = await ann.get<Widget & { secret?: string }>(`/rest/v1/widgets/${made.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    const { secret: _secret, ...shown } = made;
    expect(read.body).toEqual(shown);
    const list = await ann.get<{ items: Widget[] }>('/rest/v1/widgets');
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    expect(JSON.stringify(list.body)).not.toContain(row!.secret_sealed);
    expect(logLines.join('\n')).not.toContain(made.secret);
    expect(logLines.join('\n')).not.toContain(row!.secret_sealed);
  });

  it('makes a widget of a custom AI, with no tools', async () => {
    const made = await create(ann, {
      name: 'Pirate chat',
      target: { custom_ai_id: pirate.id },
      appearance: { title: 'Arr', color: '#112233', greeting: 'Ahoy', position: 'bottom-left' },
      budget: {
        messages_per_visitor_hour: 5,
        daily_tokens: 100,
        monthly_tokens: 1000,
        max_reply_tokens: 64,
      },
      require_signed_visitors: true,
      enabled: false,
    });
    expect(made).toMatchObject({
      target: { kind: 'custom_ai', id: pirate.id, name: 'Pirate' },
      appearance: { title: 'Arr', color: '#112233', greeting: 'Ahoy', position: 'bottom-left' },
      budget: { messages_per_visitor_hour: 5, daily_tokens: 100, monthly_tokens: 1000 },
      require_signed_visitors: true,
      enabled: false,
      allowed_origins: [],
      allowed_tools: [],
    });
    const tools = await ann.post<Refusal>('/rest/v1/widgets', {
      name: 'Pirate chat',
      target: { custom_ai_id: pirate.id },
      appearance: { title: 'Arr' },
      allowed_tools: ['builtin:calculator'],
    });
    expect(tools.status).toBe(422);
    expect(tools.body.code).toBe('widgets:unknown_tool');
    expect((await ann.del(`/rest/v1/widgets/${made.id}`)).status).toBe(204);
  });

  it('lists widgets with their usage today and this month', async () => {
    const made = await create(ann, widgetFor(helper.id, { name: 'Counted' }));
    const today = await utcToday();
    const [monthStart] = (
      (await t.db.execute(
        sql`select to_char(date_trunc('month', now() at time zone 'UTC'), 'YYYY-MM-DD') as day`,
      )) as unknown as { rows: { day: string }[] }
    ).rows;
    await t.db.insert(widgetUsageDays).values([
      { widget_id: made.id, day: today, messages: 3, input_tokens: 100, output_tokens: 50 },
      // Last month's: not this month's.
      {
        widget_id: made.id,
        day: await utcToday(-40),
        messages: 9,
        input_tokens: 9000,
        output_tokens: 9000,
      },
    ]);
    let month = 150;
    if (monthStart!.day !== today) {
      await t.db.insert(widgetUsageDays).values({
        widget_id: made.id,
        day: monthStart!.day,
        messages: 2,
        input_tokens: 1000,
        output_tokens: 500,
      });
      month += 1500;
    }
    const list = await ann.get<{ items: Widget[] }>('/rest/v1/widgets');
    expect(list.status).toBe(200);
    const counted = list.body.items.find((w) => w.id === made.id);
    expect(counted?.usage).toEqual({
      tokens_today: 150,
      tokens_this_month: month,
      messages_today: 3,
    });
    // Newest first; another user's widgets are not there.
    expect(list.body.items[0]?.id).toBe(made.id);
    const bobs = await create(bob, widgetFor(bobsAgent.id));
    expect(list.body.items.map((w) => w.id)).not.toContain(bobs.id);
    expect((await bob.get<{ items: Widget[] }>('/rest/v1/widgets')).body.items).toHaveLength(1);
    expect((await ann.get<Widget>(`/rest/v1/widgets/${made.id}`)).body.usage).toEqual(
      counted?.usage,
    );
  });

  it('changes only the fields sent, inside budget and appearance too', async () => {
    const made = await create(
      ann,
      widgetFor(helper.id, {
        appearance: {
          title: 'Ask us',
          color: '#000000',
          greeting: 'Hello',
          position: 'bottom-left',
        },
        allowed_tools: ['builtin:calculator', 'builtin:current_datetime'],
      }),
    );
    const res = await ann.patch<Widget>(`/rest/v1/widgets/${made.id}`, {
      name: '  Renamed  ',
      budget: { daily_tokens: 1000 },
      appearance: { title: 'New title' },
      allowed_origins: ['https://Shop.Example.com:8443'],
      require_signed_visitors: true,
      enabled: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      budget: {
        daily_tokens: 1000,
        monthly_tokens: widgetLimits.defaultMonthlyTokens,
        messages_per_visitor_hour: widgetLimits.defaultMessagesPerVisitorHour,
        max_reply_tokens: widgetLimits.defaultMaxReplyTokens,
      },
      appearance: {
        title: 'New title',
        color: '#000000',
        greeting: 'Hello',
        position: 'bottom-left',
      },
      allowed_origins: ['https://shop.example.com:8443'],
      require_signed_visitors: true,
      enabled: false,
      secret_hint: made.secret_hint,
      public_id: made.public_id,
    });

    const tooMuch = await ann.patch<Refusal>(`/rest/v1/widgets/${made.id}`, {
      budget: { daily_tokens: widgetLimits.defaultMonthlyTokens + 1 },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.code).toBe('bad_request:validation');
    expect(tooMuch.body.error).toContain('The daily budget cannot be above the monthly one');

    // Allowed tools follow the rule on a change too.
    const approval = await ann.patch<Refusal>(`/rest/v1/widgets/${made.id}`, {
      allowed_tools: ['builtin:web_fetch'],
    });
    expect(approval.status).toBe(422);
    expect(approval.body.code).toBe('widgets:unknown_tool');
    const fewer = await ann.patch<Widget>(`/rest/v1/widgets/${made.id}`, {
      allowed_tools: ['builtin:current_datetime'],
    });
    expect(fewer.body.allowed_tools).toEqual(['builtin:current_datetime']);

    // A new target without tools keeps none of the old agent's; another's is refused.
    const moved = await ann.patch<Widget>(`/rest/v1/widgets/${made.id}`, {
      target: { custom_ai_id: pirate.id },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.target).toEqual({ kind: 'custom_ai', id: pirate.id, name: 'Pirate' });
    expect(moved.body.allowed_tools).toEqual([]);
    const stolen = await ann.patch<Refusal>(`/rest/v1/widgets/${made.id}`, {
      target: { agent_id: bobsAgent.id },
    });
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('widgets:target_not_found');
    const back = await ann.patch<Widget>(`/rest/v1/widgets/${made.id}`, {
      target: { agent_id: helper.id },
      allowed_tools: ['builtin:calculator'],
    });
    expect(back.body).toMatchObject({
      target: { kind: 'agent', id: helper.id, name: 'Helper' },
      allowed_tools: ['builtin:calculator'],
    });
    expect((await ann.patch<Refusal>(`/rest/v1/widgets/${made.id}`, { nope: 1 })).status).toBe(400);
  });

  it('rotates the secret, showing the new one once', async () => {
    const made = await create(ann, widgetFor(helper.id));
    const rotated = await ann.post<WidgetWithSecret>(`/rest/v1/widgets/${made.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.secret).not.toBe(made.secret);
    expect(rotated.body.secret_hint).toBe(`${rotated.body.secret.slice(0, 10)}…`);
    expect(rotated.body.public_id).toBe(made.public_id);
    const [row] = await t.db.select().from(widgets).where(eq(widgets.id, made.id));
    expect(t.deps.box.open(row!.secret_sealed)).toBe(rotated.body.secret);
    expect(JSON.stringify(row)).not.toContain(rotated.body.secret);
    const read = await ann.get<Widget & { secret?: string }>(`/rest/v1/widgets/${made.id}`);
    expect(read.body.secret).toBeUndefined();
    expect(read.body.secret_hint).toBe(rotated.body.secret_hint);
  });

  it('removes a widget with its visitors, sessions, conversations and usage at once', async () => {
    const made = await create(ann, widgetFor(helper.id));
    const visitor = await addVisitor(made.id);
    await t.db.insert(widgetVisitorSessions).values({
      token_hash: `hash-remove-${made.id}`,
      visitor_id: visitor.id,
      widget_id: made.id,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    await addConversation(made.id, visitor.id, new Date(), [{ role: 'user', content: 'Hi' }]);
    await t.db
      .insert(widgetUsageDays)
      .values({ widget_id: made.id, day: await utcToday(), messages: 1 });

    expect((await ann.del(`/rest/v1/widgets/${made.id}`)).status).toBe(204);
    expect((await ann.get(`/rest/v1/widgets/${made.id}`)).status).toBe(404);
    const left = async (table: typeof widgetVisitors | typeof widgetConversations) =>
      (await t.db.select().from(table).where(eq(table.widget_id, made.id))).length;
    expect(await t.db.select().from(widgets).where(eq(widgets.id, made.id))).toEqual([]);
    expect(await left(widgetVisitors)).toBe(0);
    expect(await left(widgetConversations)).toBe(0);
    expect(
      await t.db.select().from(widgetMessages).where(eq(widgetMessages.widget_id, made.id)),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(widgetVisitorSessions)
        .where(eq(widgetVisitorSessions.widget_id, made.id)),
    ).toEqual([]);
    expect(
      await t.db.select().from(widgetUsageDays).where(eq(widgetUsageDays.widget_id, made.id)),
    ).toEqual([]);
    const again = await ann.del<Refusal>(`/rest/v1/widgets/${made.id}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('widgets:not_found');
  });

  it('speaks only for the owner’s own agent or custom AI', async () => {
    for (const target of [
      { agent_id: bobsAgent.id },
      { custom_ai_id: bobsAi.id },
      { agent_id: '00000000-0000-4000-8000-000000000000' },
    ]) {
      const res = await ann.post<Refusal>('/rest/v1/widgets', { ...widgetFor(''), target });
      expect(res.status, JSON.stringify(target)).toBe(404);
      expect(res.body.code).toBe('widgets:target_not_found');
    }
    for (const target of [{}, { agent_id: helper.id, custom_ai_id: pirate.id }]) {
      const res = await ann.post<Refusal>('/rest/v1/widgets', { ...widgetFor(''), target });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('Pick one agent or one custom AI for the widget');
    }
  });

  it('allows only the agent’s tools that need no approval', async () => {
    for (const tools of [['builtin:web_fetch'], ['builtin:calculator', 'http:nope'], ['x']]) {
      const res = await ann.post<Refusal>(
        '/rest/v1/widgets',
        widgetFor(helper.id, { allowed_tools: tools }),
      );
      expect(res.status, tools.join()).toBe(422);
      expect(res.body.code).toBe('widgets:unknown_tool');
      expect(res.body.error).toBe(messageFor('widgets:unknown_tool'));
    }
  });

  it('refuses origins with a path, a wildcard in the middle or no valid host, saying why', async () => {
    const cases: [string, string][] = [
      ['https://example.com/page', 'without a path'],
      ['https://example.com/', 'without a path'],
      ['https://a.*.example.com', 'without a path'],
      ['*', 'without a path'],
      ['ftp://example.com', 'without a path'],
      ['https://*.com', 'name a domain, like https://*.example.com'],
      ['https://exa..mple.com', 'has no valid host name'],
      ['https://-example.com', 'has no valid host name'],
      ['http://localhost:70000', 'has a port outside 1–65535'],
      ['http://localhost:0', 'has a port outside 1–65535'],
    ];
    for (const [origin, why] of cases) {
      const res = await ann.post<Refusal>(
        '/rest/v1/widgets',
        widgetFor(helper.id, { allowed_origins: ['https://fine.example', origin] }),
      );
      expect(res.status, origin).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
      expect(res.body.error, origin).toContain('allowed_origins.1');
      expect(res.body.error, origin).toContain(why);
    }
    const tooMany = await ann.post<Refusal>(
      '/rest/v1/widgets',
      widgetFor(helper.id, {
        allowed_origins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`),
      }),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toContain('at most 20 allowed origins');
    const made = await create(ann, widgetFor(helper.id));
    const patched = await ann.patch<Refusal>(`/rest/v1/widgets/${made.id}`, {
      allowed_origins: ['https://*.com'],
    });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain('name a domain');
  });

  it('refuses text that cannot be stored', async () => {
    const made = await create(ann, widgetFor(helper.id));
    const nul = await ann.post<Refusal>(
      '/rest/v1/widgets',
      widgetFor(helper.id, { name: 'Sup\u0000port' }),
    );
    expect(nul.status).toBe(400);
    expect(nul.body.code).toBe('request:invalid_text');
    const patched = await ann.patch<Refusal>(`/rest/v1/widgets/${made.id}`, {
      appearance: { title: 'a\u0000b' },
    });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('request:invalid_text');
    const search = await ann.get<Refusal>(`/rest/v1/widgets/${made.id}/sessions?q=a%00b`);
    expect(search.status).toBe(400);
    expect(search.body.code).toBe('request:invalid_text');
  });

  it('says plainly when the agent or custom AI was deleted', async () => {
    const gone = await newAgent(ann, 'Short lived');
    const goneAi = await newCustomAi(ann, 'Short lived AI');
    const a = await create(ann, widgetFor(gone.id, { allowed_tools: ['builtin:calculator'] }));
    const b = await create(ann, { ...widgetFor(''), target: { custom_ai_id: goneAi.id } });
    expect((await ann.del(`/rest/v1/agents/${gone.id}`)).status).toBe(204);
    expect((await ann.del(`/rest/v1/custom-ais/${goneAi.id}`)).status).toBe(204);
    for (const id of [a.id, b.id]) {
      const read = await ann.get<Widget>(`/rest/v1/widgets/${id}`);
      expect(read.status).toBe(200);
      expect(read.body.target).toEqual({ kind: 'agent', id: '', name: null });
    }
    // No agent, no tools: a tool cannot be allowed until another target is picked.
    const tools = await ann.patch<Refusal>(`/rest/v1/widgets/${a.id}`, {
      allowed_tools: ['builtin:calculator'],
    });
    expect(tools.status).toBe(422);
    const renamed = await ann.patch<Widget>(`/rest/v1/widgets/${a.id}`, { name: 'Still here' });
    expect(renamed.status).toBe(200);
    const fixed = await ann.patch<Widget>(`/rest/v1/widgets/${a.id}`, {
      target: { agent_id: helper.id },
    });
    expect(fixed.body.target).toEqual({ kind: 'agent', id: helper.id, name: 'Helper' });
  });

  it('keeps at most the per-user number of widgets', async () => {
    const carol = await t.user('widgets-carol@example.com');
    const agent = await newAgent(carol, 'Carols');
    for (let i = 0; i < widgetLimits.perUser; i += 1) await create(carol, widgetFor(agent.id));
    const res = await carol.post<Refusal>('/rest/v1/widgets', widgetFor(agent.id));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('widgets:too_many');
  });
});

describe('widgets: the owner’s view of sessions', () => {
  let widget: WidgetWithSecret;
  let other: WidgetWithSecret;
  let anon: Awaited<ReturnType<typeof addVisitor>>;
  let dana: Awaited<ReturnType<typeof addVisitor>>;
  let stranger: Awaited<ReturnType<typeof addVisitor>>;
  let password: { id: string };
  let hours: { id: string };
  let strangers: { id: string };
  const base = Date.now() - 3_600_000;

  beforeAll(async () => {
    widget = await create(ann, widgetFor(helper.id, { name: 'Sessions' }));
    other = await create(ann, widgetFor(helper.id, { name: 'Other' }));
    anon = await addVisitor(widget.id);
    dana = await addVisitor(widget.id, { external_id: 'user-42', name: 'Dana', signed: true });
    stranger = await addVisitor(other.id);
    password = await addConversation(widget.id, anon.id, new Date(base + 1000), [
      { role: 'user', content: 'How do I reset my password?' },
      {
        role: 'assistant',
        content: `Open Settings, then choose Forgot password.${' More words.'.repeat(30)}`,
        sources: [{ document: 'help.md', position: 'p. 2', text: 'Forgot password resets it' }],
      },
      { role: 'user', content: 'Thanks, that worked!' },
    ]);
    hours = await addConversation(widget.id, dana.id, new Date(base + 2000), [
      { role: 'user', content: 'Opening hours on Sunday?' },
      { role: 'assistant', content: 'We are open 10 to 16 on Sundays.' },
    ]);
    strangers = await addConversation(other.id, stranger.id, new Date(base + 3000), [
      { role: 'user', content: 'Password help please' },
    ]);
  });

  it('lists the conversations, newest activity first, with visitor and a line of the last message', async () => {
    const res = await ann.get<SessionList>(`/rest/v1/widgets/${widget.id}/sessions`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((c) => c.id)).toEqual([hours.id, password.id]);
    expect(res.body.next_cursor).toBeNull();
    const [first, second] = res.body.items;
    expect(first).toMatchObject({
      title: 'Opening hours on Sunday?',
      message_count: 2,
      input_tokens: 20,
      output_tokens: 40,
      snippet: 'We are open 10 to 16 on Sundays.',
      visitor: { id: dana.id, external_id: 'user-42', name: 'Dana', signed: true, blocked: false },
    });
    expect(second).toMatchObject({
      snippet: 'Thanks, that worked!',
      visitor: { id: anon.id, external_id: null, name: null, signed: false },
    });
  });

  it('searches message text, the snippet from the matching message', async () => {
    const pw = await ann.get<SessionList>(
      `/rest/v1/widgets/${widget.id}/sessions?q=${encodeURIComponent('Forgot passw')}`,
    );
    expect(pw.body.items.map((c) => c.id)).toEqual([password.id]);
    expect(pw.body.items[0]!.snippet).toMatch(/^Open Settings, then choose Forgot password\./);
    expect(pw.body.items[0]!.snippet.length).toBeLessThanOrEqual(162);
    expect(pw.body.items[0]!.snippet.endsWith('…')).toBe(true);

    // Words match as prefixes, case aside; the latest matching message gives the line.
    const sunday = await ann.get<SessionList>(`/rest/v1/widgets/${widget.id}/sessions?q=SUNDAY`);
    expect(sunday.body.items.map((c) => [c.id, c.snippet])).toEqual([
      [hours.id, 'We are open 10 to 16 on Sundays.'],
    ]);
    const open = await ann.get<SessionList>(`/rest/v1/widgets/${widget.id}/sessions?q=opening`);
    expect(open.body.items.map((c) => [c.id, c.snippet])).toEqual([
      [hours.id, 'Opening hours on Sunday?'],
    ]);
    // Another widget's conversations are never found, even by the same owner's search.
    const help = await ann.get<SessionList>(`/rest/v1/widgets/${widget.id}/sessions?q=help`);
    expect(help.body.items).toEqual([]);
    expect(
      (
        await ann.get<SessionList>(`/rest/v1/widgets/${other.id}/sessions?q=password`)
      ).body.items.map((c) => c.id),
    ).toEqual([strangers.id]);
    const nothing = await ann.get<SessionList>(`/rest/v1/widgets/${widget.id}/sessions?q=%21%21`);
    expect(nothing.body).toEqual({ items: [], next_cursor: null });
  });

  it('pages with a cursor, ties at the same instant included, and refuses a forged one', async () => {
    const paged = await create(ann, widgetFor(helper.id, { name: 'Paged' }));
    const visitor = await addVisitor(paged.id);
    const same = new Date(base + 5000);
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const c = await addConversation(paged.id, visitor.id, i < 3 ? same : new Date(base + i), [
        { role: 'user', content: `Question ${i}` },
      ]);
      made.push(c.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/rest/v1/widgets/${paged.id}/sessions?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { status: number; body: SessionList } = await ann.get<SessionList>(url);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((c) => c.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(made));

    for (const bad of [
      'nope',
      Buffer.from('2026-01-01|x').toString('base64url'),
      Buffer.from(`2026-02-30T00:00:00.000000Z|${made[0]}`).toString('base64url'),
      Buffer.from(`0000-01-01T00:00:00.000000Z|${made[0]}`).toString('base64url'),
      'a'.repeat(150),
    ]) {
      const res = await ann.get<Refusal>(`/rest/v1/widgets/${paged.id}/sessions?cursor=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('widgets:bad_cursor');
    }
    expect((await ann.get(`/rest/v1/widgets/${paged.id}/sessions?limit=0`)).status).toBe(400);
  });

  it('reads one conversation with its messages in order', async () => {
    const res = await ann.get<Conversation>(
      `/rest/v1/widgets/${widget.id}/sessions/${password.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: password.id,
      visitor: { id: anon.id },
      message_count: 3,
      snippet: 'Thanks, that worked!',
    });
    expect(res.body.messages.map((m) => [m.role, m.content.slice(0, 20), m.status])).toEqual([
      ['user', 'How do I reset my pa', 'done'],
      ['assistant', 'Open Settings, then ', 'done'],
      ['user', 'Thanks, that worked!', 'done'],
    ]);
    expect(res.body.messages[1]!.sources).toEqual([
      { document: 'help.md', position: 'p. 2', text: 'Forgot password resets it' },
    ]);
    // Another widget's conversation, even the same owner's, is not this widget's.
    for (const id of [strangers.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const missing = await ann.get<Refusal>(`/rest/v1/widgets/${widget.id}/sessions/${id}`);
      expect(missing.status, id).toBe(404);
      expect(missing.body.code).toBe('widgets:conversation_not_found');
    }
  });

  it('blocks a visitor, keeping their sessions to refuse them by, and unblocks them', async () => {
    await t.db.insert(widgetVisitorSessions).values(
      ['a', 'b'].map((n) => ({
        token_hash: `hash-block-${n}-${dana.id}`,
        visitor_id: dana.id,
        widget_id: widget.id,
        expires_at: new Date(Date.now() + 86_400_000),
      })),
    );
    await t.db.insert(widgetVisitorSessions).values({
      token_hash: `hash-block-anon-${anon.id}`,
      visitor_id: anon.id,
      widget_id: widget.id,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    const sessionsOf = async (visitorId: string) =>
      (
        await t.db
          .select()
          .from(widgetVisitorSessions)
          .where(eq(widgetVisitorSessions.visitor_id, visitorId))
      ).length;

    const blocked = await ann.post<WidgetVisitor>(
      `/rest/v1/widgets/${widget.id}/visitors/${dana.id}/block`,
    );
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ id: dana.id, blocked: true, name: 'Dana' });
    // Kept: a blocked visitor coming back with one is refused as blocked (widget-public.test.ts).
    expect(await sessionsOf(dana.id)).toBe(2);
    expect(await sessionsOf(anon.id)).toBe(1);
    const [row] = await t.db.select().from(widgetVisitors).where(eq(widgetVisitors.id, dana.id));
    expect(row!.blocked_at).toBeInstanceOf(Date);
    const list = await ann.get<SessionList>(`/rest/v1/widgets/${widget.id}/sessions`);
    expect(list.body.items.find((c) => c.id === hours.id)?.visitor.blocked).toBe(true);
    // Blocking again changes nothing.
    const again = await ann.post<WidgetVisitor>(
      `/rest/v1/widgets/${widget.id}/visitors/${dana.id}/block`,
    );
    expect(again.body.blocked).toBe(true);
    const [still] = await t.db.select().from(widgetVisitors).where(eq(widgetVisitors.id, dana.id));
    expect(still!.blocked_at?.getTime()).toBe(row!.blocked_at?.getTime());

    const unblocked = await ann.post<WidgetVisitor>(
      `/rest/v1/widgets/${widget.id}/visitors/${dana.id}/unblock`,
    );
    expect(unblocked.status).toBe(200);
    expect(unblocked.body.blocked).toBe(false);

    // A visitor of another widget (the same owner's) is not this widget's.
    for (const action of ['block', 'unblock']) {
      for (const id of [stranger.id, 'nope']) {
        const res = await ann.post<Refusal>(
          `/rest/v1/widgets/${widget.id}/visitors/${id}/${action}`,
        );
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('widgets:visitor_not_found');
      }
    }
    const [untouched] = await t.db
      .select()
      .from(widgetVisitors)
      .where(eq(widgetVisitors.id, stranger.id));
    expect(untouched!.blocked_at).toBeNull();
  });

  it('counts use per day, days without use included', async () => {
    const counted = await create(ann, widgetFor(helper.id, { name: 'Usage' }));
    const v1 = await addVisitor(counted.id);
    const v2 = await addVisitor(counted.id);
    const today = await utcToday();
    const twoDaysAgo = await utcToday(-2);
    const earlyOn = (day: string) => new Date(`${day}T00:00:01.000Z`);
    // Today: two visitors wrote (one twice); two days ago: one.
    await addConversation(counted.id, v1.id, new Date(), [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ]);
    await addConversation(counted.id, v2.id, new Date(), [{ role: 'user', content: 'd' }]);
    const old = await addConversation(counted.id, v2.id, earlyOn(twoDaysAgo), []);
    await t.db.insert(widgetMessages).values({
      conversation_id: old.id,
      widget_id: counted.id,
      role: 'user',
      content: 'e',
      created_at: earlyOn(twoDaysAgo),
    });
    await t.db.insert(widgetUsageDays).values([
      { widget_id: counted.id, day: today, messages: 3, input_tokens: 300, output_tokens: 120 },
      { widget_id: counted.id, day: twoDaysAgo, messages: 1, input_tokens: 80, output_tokens: 40 },
      // Outside the span asked for.
      { widget_id: counted.id, day: await utcToday(-10), messages: 7, input_tokens: 7 },
    ]);

    const res = await ann.get<UsageDays>(`/rest/v1/widgets/${counted.id}/usage?days=7`);
    expect(res.status).toBe(200);
    expect(res.body.days.map((d) => d.day)).toEqual(
      await Promise.all([-6, -5, -4, -3, -2, -1, 0].map((n) => utcToday(n))),
    );
    const byDay = new Map(res.body.days.map((d) => [d.day, d]));
    expect(byDay.get(today)).toEqual({
      day: today,
      messages: 3,
      input_tokens: 300,
      output_tokens: 120,
      visitors: 2,
    });
    expect(byDay.get(twoDaysAgo)).toEqual({
      day: twoDaysAgo,
      messages: 1,
      input_tokens: 80,
      output_tokens: 40,
      visitors: 1,
    });
    expect(byDay.get(await utcToday(-1))).toEqual({
      day: await utcToday(-1),
      messages: 0,
      input_tokens: 0,
      output_tokens: 0,
      visitors: 0,
    });
    const month = await ann.get<UsageDays>(`/rest/v1/widgets/${counted.id}/usage`);
    expect(month.body.days).toHaveLength(30);
    expect(month.body.days.reduce((n, d) => n + d.messages, 0)).toBe(11);
    for (const days of ['0', '91', 'x']) {
      expect((await ann.get(`/rest/v1/widgets/${counted.id}/usage?days=${days}`)).status).toBe(400);
    }
  });
});

describe('widgets: nobody but the owner', () => {
  it('answers 404 to another user, an admin included, on every route', async () => {
    const made = await create(ann, widgetFor(helper.id, { name: 'Private' }));
    const visitor = await addVisitor(made.id);
    const conversation = await addConversation(made.id, visitor.id, new Date(), [
      { role: 'user', content: 'secret question' },
    ]);
    await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, bob.id));
    const admin = await t.user('widgets-admin@example.com');
    await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));

    const w = `/rest/v1/widgets/${made.id}`;
    const calls: [string, string, unknown?][] = [
      ['GET', w],
      ['PATCH', w, { name: 'Taken' }],
      ['PATCH', w, { enabled: false }],
      ['PATCH', w, { show_sources: false }],
      ['POST', `${w}/secret`, {}],
      ['GET', `${w}/sessions`],
      ['GET', `${w}/sessions?q=secret`],
      ['GET', `${w}/sessions/${conversation.id}`],
      ['POST', `${w}/visitors/${visitor.id}/block`, {}],
      ['POST', `${w}/visitors/${visitor.id}/unblock`, {}],
      ['GET', `${w}/usage?days=7`],
      ['DELETE', w],
    ];
    for (const who of [bob, root, admin]) {
      for (const [method, url, body] of calls) {
        const res = await who.request<Refusal>(method, url, body);
        expect(res.status, `${who.email} ${method} ${url}`).toBe(404);
        expect(res.body.code).toBe('widgets:not_found');
      }
      const list = await who.get<{ items: Widget[] }>('/rest/v1/widgets');
      expect(list.body.items.map((x) => x.id)).not.toContain(made.id);
    }

    // Nothing changed: the same name, secret, visitor and conversation.
    const [row] = await t.db.select().from(widgets).where(eq(widgets.id, made.id));
    expect(row).toMatchObject({
      name: 'Private',
      enabled: true,
      show_sources: true,
      secret_hint: made.secret_hint,
    });
    expect(t.deps.box.open(row!.secret_sealed)).toBe(made.secret);
    const [v] = await t.db.select().from(widgetVisitors).where(eq(widgetVisitors.id, visitor.id));
    expect(v!.blocked_at).toBeNull();
    expect((await ann.get(`${w}/sessions/${conversation.id}`)).status).toBe(200);

    // No admin route lists or reads widgets.
    const doc = await ann.get<{ paths: Record<string, unknown> }>('/rest/v1/openapi.json');
    const paths = Object.keys(doc.body.paths);
    expect(paths).toContain('/rest/v1/widgets/{id}');
    expect(paths.filter((p) => p.includes('/admin') && /widget/i.test(p))).toEqual([]);

    // Signed out: 401.
    expect((await t.client().get(w)).status).toBe(401);
    expect((await t.client().get('/rest/v1/widgets')).status).toBe(401);
  });
});
