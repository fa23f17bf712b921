import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import { planMessages } from '@chorus/shared/messages';
import { profiles, promptUsage, usageEvents } from '../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { utcDate } from './quota.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  admin = await t.user('root@example.com');
});
afterAll(() => t.close());

const createPlan = async (body: Record<string, unknown>) => {
  const res = await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', body);
  expect(res.status).toBe(201);
  return res.body;
};

/** A signed-in user with an OpenAI key, a conversation, and optionally a plan. */
const chatter = async (email: string, planId?: string) => {
  const u = await t.user(email);
  await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-test-quota-0001' });
  if (planId) await t.db.update(profiles).set({ plan_id: planId }).where(eq(profiles.id, u.id));
  const conv = (await u.post<Conversation>('/rest/v1/conversations', { title: 'Quota' })).body;
  const chat = async (text: string, extra: Record<string, unknown> = {}) => {
    const res = await t.app.request('/functions/v1/chat', {
      method: 'POST',
      headers: {
        origin: TEST_APP_URL,
        'content-type': 'application/json',
        'x-forwarded-for': u.ip,
        cookie: [...u.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: JSON.stringify({ conversation_id: conv.id, provider: 'openai', text, ...extra }),
    });
    const body = await res.text();
    return { status: res.status, body };
  };
  const proxy = (content: string, extra: Record<string, unknown> = {}) =>
    u.post<{ response?: string; error?: string; code?: string }>('/functions/v1/ai-api-proxy', {
      provider: 'openai',
      messages: [{ role: 'user', content }],
      ...extra,
    });
  const history = async () =>
    (await u.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`)).body;
  const countToday = async () =>
    (
      await t.db
        .select()
        .from(promptUsage)
        .where(and(eq(promptUsage.user_id, u.id), eq(promptUsage.date, utcDate(new Date()))))
    )[0]?.count ?? 0;
  const events = () => t.db.select().from(usageEvents).where(eq(usageEvents.user_id, u.id));
  return { u, chat, proxy, history, countToday, events };
};

const refusalPattern = (limit: number, plan: string) =>
  new RegExp(
    `^${planMessages
      .quotaExceeded(limit, plan, 'WAIT')
      .replace(/[.()]/g, '\\$&')
      .replace('WAIT', '(\\d+ h )?\\d+ min|\\d+ h')}$`,
  );

describe('daily prompt quota', () => {
  it('refuses the chat over the plan limit with a message naming it, and leaves others alone', async () => {
    const tight = await createPlan({ name: 'Tight', daily_prompt_limit: 2 });
    const limited = await chatter('limited@example.com', tight.id);
    const other = await chatter('other@example.com');

    expect((await limited.chat('first')).status).toBe(200);
    expect((await limited.proxy('second')).status).toBe(200);
    expect(await limited.countToday()).toBe(2);

    const refused = await limited.chat('third, over the limit');
    expect(refused.status).toBe(403);
    const body = JSON.parse(refused.body) as { error: string; code: string };
    expect(body.code).toBe('quota:exceeded');
    expect(body.error).toMatch(refusalPattern(2, 'Tight'));
    const viaProxy = await limited.proxy('fourth');
    expect(viaProxy.status).toBe(403);
    expect(viaProxy.body.code).toBe('quota:exceeded');
    // Refused before anything was stored or counted.
    expect((await limited.history()).map((m) => m.content)).not.toContain('third, over the limit');
    expect(await limited.countToday()).toBe(2);

    // Someone on the (unlimited) Free plan is unaffected.
    for (const text of ['a', 'b', 'c']) expect((await other.chat(text)).status).toBe(200);
    expect(await other.countToday()).toBe(3);

    // Raising the limit lets the limited user go on at once.
    await admin.patch(`/rest/v1/admin/pricing-plans/${tight.id}`, { daily_prompt_limit: 3 });
    expect((await limited.chat('third, after the raise')).status).toBe(200);
  });

  it('charges nothing for a request that cannot run', async () => {
    const fresh = await chatter('nothing-to-answer@example.com');
    const res = await fresh.chat('', { regenerate: true });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'chat:nothing_to_regenerate' });
    const badEdit = await fresh.chat('edited', { edit_of: '00000000-0000-4000-8000-000000000000' });
    expect(badEdit.status).toBe(404);
    expect(await fresh.countToday()).toBe(0);
  });

  it('refuses a limit of 0 and providers or models the plan does not include', async () => {
    const none = await createPlan({ name: 'Nothing', daily_prompt_limit: 0 });
    const zero = await chatter('zero@example.com', none.id);
    const res = await zero.proxy('hello');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(refusalPattern(0, 'Nothing'));

    const onlyPerplexity = await createPlan({ name: 'Search', allowed_providers: ['perplexity'] });
    const searcher = await chatter('search@example.com', onlyPerplexity.id);
    const wrongProvider = await searcher.chat('hello');
    expect(wrongProvider.status).toBe(403);
    expect(JSON.parse(wrongProvider.body)).toMatchObject({
      code: 'quota:provider_not_allowed',
      error: planMessages.providerNotAllowed('OpenAI', 'Search'),
    });

    const mini = await createPlan({ name: 'Mini', allowed_models: ['gpt-5-mini'] });
    const small = await chatter('mini@example.com', mini.id);
    const wrongModel = await small.proxy('hello', { model: 'gpt-4.1' });
    expect(wrongModel.status).toBe(403);
    expect(wrongModel.body).toMatchObject({
      code: 'quota:model_not_allowed',
      error: planMessages.modelNotAllowed('gpt-4.1', 'Mini'),
    });
    expect((await small.proxy('hello', { model: 'gpt-5-mini' })).status).toBe(200);
    expect(await searcher.countToday()).toBe(0);
  });

  it('gives the last prompt of the day to exactly one of several concurrent calls', async () => {
    const five = await createPlan({ name: 'Five', daily_prompt_limit: 5 });
    const racer = await chatter('racer@example.com', five.id);
    await t.db
      .insert(promptUsage)
      .values({ user_id: racer.u.id, date: utcDate(new Date()), count: 4 });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => racer.proxy(`race ${i}`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 403, 403, 403, 403]);
    expect(await racer.countToday()).toBe(5);
  });

  it('records one usage event per call with its token counts and status', async () => {
    const user = await chatter('events@example.com');
    expect((await user.chat('count my tokens [sim:tokens 7]')).status).toBe(200);
    expect((await user.proxy('and these [sim:tokens 3]')).status).toBe(200);
    expect((await user.proxy('this fails [sim:500]')).status).toBe(502);
    const rows = (await user.events()).sort(
      (a, b) => a.created_at.getTime() - b.created_at.getTime(),
    );
    expect(rows.map((r) => [r.source, r.provider, r.model, r.status])).toEqual([
      ['chat', 'openai', 'gpt-5-2025-08-07', 'ok'],
      ['proxy', 'openai', 'gpt-5-2025-08-07', 'ok'],
      ['proxy', 'openai', 'gpt-5-2025-08-07', 'error'],
    ]);
    expect(rows[0]!.output_tokens).toBeGreaterThan(0);
    expect(rows[0]!.input_tokens).toBeGreaterThan(0);
    expect(rows[1]!.output_tokens).toBeGreaterThan(0);
    expect(rows[2]!.output_tokens).toBe(0);
    expect(await user.countToday()).toBe(3);
  });
});
