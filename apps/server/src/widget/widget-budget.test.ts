import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { widgetUnavailableMessage, type WidgetStreamEvent } from '@chorus/shared/api/widgets';
import { widgetBudgetHolds, widgetMessages, widgets, widgetUsageDays } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';
import { reserveTokens } from './store.ts';

/**
 * A widget's token budget under a crowd of visitors writing at once (docs/SECURITY.md, "Budgets
 * under races"): each reply holds its maximum before the provider is called, so however many
 * arrive together, the day's spend ends at most one reply over the budget.
 */

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

const HOST = 'https://shop.example.com';

let t: TestApp;
let owner: Client;
let tiny: CustomAi;

const alnum = () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(20), (b) => letters[b % letters.length]).join('');
};

const makeWidget = async (fields: Partial<typeof widgets.$inferInsert> = {}) => {
  const [row] = await t.db
    .insert(widgets)
    .values({
      public_id: `wgt_${alnum()}`,
      user_id: owner.id,
      name: 'Small shop',
      custom_ai_id: tiny.id,
      allowed_origins: [HOST],
      appearance: { title: 'Ask us', color: '#112233', greeting: '', position: 'bottom-right' },
      messages_per_visitor_hour: 20,
      daily_tokens: 30,
      monthly_tokens: 100_000,
      max_reply_tokens: 16,
      secret_sealed: t.deps.box.seal(`wsk_${randomBytes(24).toString('base64url')}`),
      secret_hint: 'wsk_test',
      ...fields,
    })
    .returning();
  return row!;
};

const eventsOf = (sse: string): WidgetStreamEvent[] =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as WidgetStreamEvent);

/** A visitor's browser: its own address, its own session. */
const visitor = async (w: { public_id: string }) => {
  const c = t.client();
  const started = await c.request<{ session: string }>(
    'POST',
    `/widget/v1/${w.public_id}/session`,
    {},
    { 'x-chorus-embedder': HOST },
  );
  expect(started.status).toBe(200);
  const session = started.body.session;
  return {
    async chat(message: string) {
      const res = await c.send('POST', `/widget/v1/${w.public_id}/chat`, {
        headers: {
          'x-chorus-embedder': HOST,
          authorization: `Bearer ${session}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ message, conversation_id: null }),
      });
      const text = await res.text();
      return {
        status: res.status,
        events: res.status === 200 ? eventsOf(text) : [],
        json: res.status === 200 ? undefined : (JSON.parse(text) as Refusal),
      };
    },
  };
};

/** Tokens the widget's days count, and those still held by replies in flight. */
const ledgerOf = async (widgetId: string) => {
  const [row] = await t.db
    .select({
      spent: sql<string>`coalesce(sum(${widgetUsageDays.input_tokens} + ${widgetUsageDays.output_tokens}), 0)`,
      reserved: sql<string>`coalesce(sum(${widgetUsageDays.reserved_tokens}), 0)`,
      messages: sql<string>`coalesce(sum(${widgetUsageDays.messages}), 0)`,
    })
    .from(widgetUsageDays)
    .where(eq(widgetUsageDays.widget_id, widgetId));
  const holds = await t.db
    .select()
    .from(widgetBudgetHolds)
    .where(eq(widgetBudgetHolds.widget_id, widgetId));
  return {
    spent: Number(row!.spent),
    reserved: Number(row!.reserved),
    messages: Number(row!.messages),
    holds: holds.length,
  };
};

/** The tokens of each reply the widget stored. */
const replyTokens = async (widgetId: string) =>
  (
    await t.db
      .select({ input: widgetMessages.input_tokens, output: widgetMessages.output_tokens })
      .from(widgetMessages)
      .where(and(eq(widgetMessages.widget_id, widgetId), eq(widgetMessages.role, 'assistant')))
  ).map((m) => (m.input ?? 0) + (m.output ?? 0));

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  owner = await t.user('widget-budget-owner@example.com');
  expect(
    (await owner.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' })).status,
  ).toBe(200);
  const ai = await owner.post<CustomAi>('/rest/v1/custom-ais', {
    name: 'Tiny desk',
    provider: 'openai',
  });
  expect(ai.status).toBe(201);
  tiny = ai.body;
});
afterAll(async () => {
  await t.close();
});

/** Tokens already spent on `day` (today unless given), as earlier replies would have left them. */
const spend = (widgetId: string, tokens: number, day = new Date().toISOString().slice(0, 10)) =>
  t.db
    .insert(widgetUsageDays)
    .values({ widget_id: widgetId, day, messages: 1, input_tokens: tokens });

type ChatResult = Awaited<ReturnType<Awaited<ReturnType<typeof visitor>>['chat']>>;

/** Each refusal is one of the two a budget gives: spent (403), or held by replies in flight (429). */
const expectBudgetRefusals = (results: ChatResult[]) => {
  for (const r of results.filter((x) => x.status !== 200)) {
    if (r.status === 403) {
      expect(r.json).toEqual({ code: 'widgets:budget_exhausted', error: widgetUnavailableMessage });
    } else {
      expect(r.status).toBe(429);
      expect(r.json?.code).toBe('widgets:busy');
    }
  }
};

describe('a widget budget raced by many visitors', () => {
  it.each([20, 100])(
    '%i visitors at once for the last room: one answer, the rest wait, then the polite refusal',
    async (crowd) => {
      const w = await makeWidget({ daily_tokens: 1_000 });
      await spend(w.id, 990);
      const visitors = await Promise.all(Array.from({ length: crowd }, () => visitor(w)));
      const results = await Promise.all(visitors.map((v, i) => v.chat(`Question ${i + 1}`)));

      // The first to take the last 10 tokens holds more than that: nobody else starts.
      const answered = results.filter((r) => r.status === 200);
      expect(answered).toHaveLength(1);
      expect(answered[0]!.events.at(-1)).toEqual({ type: 'done' });
      expectBudgetRefusals(results);
      const replies = await replyTokens(w.id);
      expect(replies).toHaveLength(1);
      const ledger = await ledgerOf(w.id);
      expect(ledger).toEqual({ spent: 990 + replies[0]!, reserved: 0, messages: 2, holds: 0 });

      // Spent now: every visitor reads the polite refusal.
      const after = await Promise.all(visitors.slice(0, 5).map((v) => v.chat('And now?')));
      for (const r of after) {
        expect(r.status).toBe(403);
        expect(r.json).toEqual({
          code: 'widgets:budget_exhausted',
          error: widgetUnavailableMessage,
        });
      }
    },
  );

  it('20 visitors sending at once, wave after wave: the day ends at most one reply over', async () => {
    // Replies about as long as their hold (the simulator echoes the question), so that a few
    // waves spend the budget within the widget's own message limits.
    const w = await makeWidget({ daily_tokens: 1_000, max_reply_tokens: 200, name: 'Busy shop' });
    const visitors = await Promise.all(Array.from({ length: 20 }, () => visitor(w)));
    const question = (wave: number, i: number) => `Wave ${wave} from ${i}: ${'x '.repeat(90)}`;
    let waves = 0;
    let mostAtOnce = 0;
    for (; waves < 10; waves += 1) {
      const results = await Promise.all(visitors.map((v, i) => v.chat(question(waves, i))));
      expectBudgetRefusals(results);
      mostAtOnce = Math.max(mostAtOnce, results.filter((r) => r.status === 200).length);
      if (results.every((r) => r.status === 403)) break;
    }
    // Replies ran side by side while there was room, and the budget did run out.
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(waves).toBeLessThan(10);
    const replies = await replyTokens(w.id);
    const ledger = await ledgerOf(w.id);
    expect(ledger.spent).toBe(replies.reduce((a, b) => a + b, 0));
    expect(ledger.spent).toBeGreaterThanOrEqual(1_000);
    expect(ledger.spent).toBeLessThanOrEqual(1_000 + Math.max(...replies));
    expect(ledger).toMatchObject({ reserved: 0, holds: 0, messages: replies.length });
    // However many were refused, the owner heard of it once.
    await waitFor(async () => (await t.outboxFor(owner.email, 'widget_budget')).length > 0);
    const mails = (await t.outboxFor(owner.email, 'widget_budget')).filter((m) =>
      m.subject.includes('Busy shop'),
    );
    expect(mails).toHaveLength(1);
  });

  it('holds the month as it holds the day', async () => {
    const w = await makeWidget({ daily_tokens: 1_000_000, monthly_tokens: 1_000 });
    await spend(w.id, 995);
    const visitors = await Promise.all(Array.from({ length: 20 }, () => visitor(w)));
    const results = await Promise.all(visitors.map((v, i) => v.chat(`Month ${i}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expectBudgetRefusals(results);
    const [stored] = await t.db.select().from(widgets).where(eq(widgets.id, w.id));
    expect(stored!.budget_notice_period).toBeNull();
    const after = await visitors[0]!.chat('Still there?');
    expect(after.status).toBe(403);
    const [noticed] = await t.db.select().from(widgets).where(eq(widgets.id, w.id));
    expect(noticed!.budget_notice_period).toBe(new Date().toISOString().slice(0, 7));
  });

  it('keeps /healthz quick and the server serving while 20 visitors race a small budget', async () => {
    const w = await makeWidget({ name: 'Raced shop' });
    const visitors = await Promise.all(Array.from({ length: 20 }, () => visitor(w)));
    let racing = true;
    const health: number[] = [];
    const probe = (async () => {
      while (racing) {
        const started = performance.now();
        const res = await t.client().get('/healthz');
        expect(res.status).toBe(200);
        health.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const results = await Promise.all(visitors.map((v, i) => v.chat(`Race ${i}`)));
    racing = false;
    await probe;
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expectBudgetRefusals(results);
    const replies = await replyTokens(w.id);
    expect((await ledgerOf(w.id)).spent).toBeLessThanOrEqual(w.daily_tokens + replies[0]!);
    // A liveness bound, not a speed test: a second is what /healthz itself allows the database.
    expect(health.length).toBeGreaterThan(0);
    expect(Math.max(...health)).toBeLessThan(1_000);
    // The server lives on: a widget with room answers.
    const roomy = await makeWidget({ daily_tokens: 100_000 });
    const next = await (await visitor(roomy)).chat('Still there?');
    expect(next.status).toBe(200);
    expect(next.events.at(-1)).toEqual({ type: 'done' });
  });
});

describe('the widget’s message limits', () => {
  it('20 messages at once from one visitor on a limit of 5 an hour: five are answered', async () => {
    const w = await makeWidget({ daily_tokens: 100_000, messages_per_visitor_hour: 5 });
    const v = await visitor(w);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => v.chat(`Hi ${i}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(429);
      expect(r.json?.code).toBe('widgets:rate_limited');
    }
  });
});

describe('holds no reply will settle', () => {
  const holdFor = (widgetId: string, instanceId: string, tokens: number, expiresInS = 300) =>
    t.db.transaction(async (tx) => {
      const day = new Date().toISOString().slice(0, 10);
      await tx
        .insert(widgetUsageDays)
        .values({ widget_id: widgetId, day, reserved_tokens: tokens })
        .onConflictDoUpdate({
          target: [widgetUsageDays.widget_id, widgetUsageDays.day],
          set: { reserved_tokens: sql`${widgetUsageDays.reserved_tokens} + ${tokens}` },
        });
      await tx.insert(widgetBudgetHolds).values({
        widget_id: widgetId,
        day,
        tokens,
        instance_id: instanceId,
        expires_at: new Date(Date.now() + expiresInS * 1000),
      });
    });

  it('releases the hold of an instance that is gone, and answers', async () => {
    const w = await makeWidget({ daily_tokens: 10_000 });
    // A crashed instance's reply held the whole budget; its lease is long gone.
    await holdFor(w.id, randomUUID(), 10_000);
    const res = await (await visitor(w)).chat('Hello after a crash');
    expect(res.status).toBe(200);
    const ledger = await ledgerOf(w.id);
    expect(ledger).toMatchObject({ reserved: 0, holds: 0, messages: 1 });
  });

  it('releases a hold older than any reply, even of a live instance', async () => {
    const w = await makeWidget({ daily_tokens: 10_000 });
    await holdFor(w.id, t.deps.instance.id, 10_000, -1);
    expect((await (await visitor(w)).chat('Hello')).status).toBe(200);
    expect(await ledgerOf(w.id)).toMatchObject({ reserved: 0, holds: 0 });
  });

  it('keeps the hold of a reply still running on a live instance', async () => {
    const w = await makeWidget({ daily_tokens: 10_000 });
    await holdFor(w.id, t.deps.instance.id, 10_000);
    const res = await (await visitor(w)).chat('Hello');
    expect(res.status).toBe(429);
    expect(res.json?.code).toBe('widgets:busy');
    expect(await ledgerOf(w.id)).toMatchObject({ reserved: 10_000, holds: 1, spent: 0 });
  });
});

describe('the month across days', () => {
  it('counts what other days of the month spent and still hold', async () => {
    const w = await makeWidget({ daily_tokens: 1_000, monthly_tokens: 2_000 });
    const now = new Date('2031-05-20T12:00:00Z');
    const maximum = {
      inputTokens: 100,
      conversationId: null,
      historyMessages: 40,
      outputTokens: 16,
      calls: 1,
      cap: 200_000,
    };
    const reserve = () =>
      reserveTokens(t.db, {
        widgetId: w.id,
        daily: 1_000,
        monthly: 2_000,
        maximum,
        instanceId: t.deps.instance.id,
        ttlMs: 60_000,
        now,
      });
    // Last month's spending is not this month's.
    await spend(w.id, 5_000, '2031-04-30');
    await spend(w.id, 1_200, '2031-05-02');
    await t.db
      .insert(widgetUsageDays)
      .values({ widget_id: w.id, day: '2031-05-19', reserved_tokens: 700 });
    const first = await reserve();
    expect(first).toMatchObject({ hold: { day: '2031-05-20', tokens: 116 } });
    // 1,200 spent + 700 held on other days + 116 held today: the month has no room left.
    const second = await reserve();
    expect(second).toEqual({
      refused: { today: 0, month: 1_200, heldToday: 116, heldMonth: 816 },
    });
  });
});
