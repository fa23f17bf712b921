import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsResponse } from '@chorus/shared/api/analytics';
import { clientErrors, conversations, messages, usageEvents } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;
let third: Awaited<ReturnType<TestApp['user']>>;

/** Midday UTC `daysAgo` days before today, and that day's date. */
const dayAgo = (daysAgo: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - daysAgo);
  d.setUTCHours(12, 0, 0, 0);
  return { at: d, date: d.toISOString().slice(0, 10) };
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('root@example.com');
  plain = await t.user('plain@example.com');
  third = await t.user('third@example.com');
  const [conv] = await t.db
    .insert(conversations)
    .values({ user_id: plain.id, title: 'Seeded' })
    .returning();
  const [conv3] = await t.db
    .insert(conversations)
    .values({ user_id: third.id, title: 'Seeded' })
    .returning();
  const msg = (
    userId: string,
    convId: string,
    daysAgo: number,
    role: 'user' | 'assistant',
    status: 'complete' | 'error' = 'complete',
  ) => ({
    user_id: userId,
    conversation_id: convId,
    role,
    status,
    provider: 'openai',
    content: 'x',
    created_at: dayAgo(daysAgo).at,
  });
  await t.db.insert(messages).values([
    msg(plain.id, conv!.id, 1, 'user'),
    msg(plain.id, conv!.id, 1, 'assistant'),
    msg(plain.id, conv!.id, 1, 'user'),
    msg(plain.id, conv!.id, 1, 'assistant', 'error'),
    msg(third.id, conv3!.id, 1, 'user'),
    msg(third.id, conv3!.id, 1, 'assistant'),
    msg(plain.id, conv!.id, 3, 'user'),
    msg(plain.id, conv!.id, 3, 'assistant'),
    // Older than the 7-day window.
    msg(third.id, conv3!.id, 20, 'user'),
  ]);
  const ev = (
    userId: string,
    daysAgo: number,
    provider: string,
    status: 'ok' | 'error' = 'ok',
  ) => ({
    user_id: userId,
    source: 'chat' as const,
    provider,
    model: 'm',
    status,
    created_at: dayAgo(daysAgo).at,
  });
  await t.db.insert(usageEvents).values([
    ev(plain.id, 1, 'openai'),
    ev(plain.id, 1, 'openai', 'error'),
    ev(third.id, 1, 'anthropic'),
    ev(plain.id, 3, 'openai'),
    // Only a proxy call that day: still an active user.
    { ...ev(admin.id, 2, 'openai'), source: 'proxy' as const },
    ev(third.id, 20, 'gemini'),
  ]);
  await t.db.insert(clientErrors).values([
    { kind: 'render', message: 'boom', created_at: dayAgo(1).at },
    { kind: 'async', message: 'boom', created_at: dayAgo(1).at },
  ]);
});
afterAll(() => t.close());

describe('GET /rest/v1/admin/analytics', () => {
  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get('/rest/v1/admin/analytics')).status).toBe(401);
    expect((await plain.get('/rest/v1/admin/analytics')).status).toBe(403);
  });

  it('counts active users, messages, calls, errors and provider share per day from stored rows', async () => {
    const res = await admin.get<AnalyticsResponse>('/rest/v1/admin/analytics?days=7');
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(7);
    expect(res.body.to).toBe(dayAgo(0).date);
    expect(res.body.from).toBe(dayAgo(6).date);
    const day = (n: number) => res.body.days.find((d) => d.date === dayAgo(n).date)!;
    // Messages are the ones people sent; the replies are not counted (activity.ts).
    expect(day(1)).toEqual({
      date: dayAgo(1).date,
      active_users: 2,
      messages: 3,
      calls: 3,
      errors: 1,
      error_rate: 1 / 3,
      failed_replies: 1,
      client_errors: 2,
    });
    expect(day(2)).toMatchObject({ active_users: 1, messages: 0, calls: 1, errors: 0 });
    expect(day(3)).toMatchObject({ active_users: 1, messages: 1, calls: 1, error_rate: 0 });
    expect(day(0)).toMatchObject({ active_users: 0, messages: 0, calls: 0, error_rate: 0 });
    expect(res.body.providers).toEqual([
      { provider: 'openai', calls: 4, share: 0.8 },
      { provider: 'anthropic', calls: 1, share: 0.2 },
    ]);
    expect(res.body.totals).toEqual({
      active_users: 3,
      messages: 4,
      failed_replies: 1,
      calls: 5,
      errors: 1,
    });

    // A longer window reaches the older rows.
    const month = await admin.get<AnalyticsResponse>('/rest/v1/admin/analytics?days=30');
    expect(month.body.totals.messages).toBe(5);
    expect(month.body.providers.map((p) => p.provider)).toContain('gemini');
  });

  it('answers 400 for a window out of range', async () => {
    for (const q of ['days=0', 'days=367', 'days=abc', 'days=1.5']) {
      expect((await admin.get(`/rest/v1/admin/analytics?${q}`)).status, q).toBe(400);
    }
  });
});
