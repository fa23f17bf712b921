import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview, AdminUsersResponse } from '@chorus/shared/api/admin';
import type { AnalyticsResponse } from '@chorus/shared/api/analytics';
import type { UsageStatisticsResponse } from '@chorus/shared/api/usage';
import { clientErrors, conversations, messages, usageEvents } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from './test-users.ts';

let t: TestApp;
let admin: TestUser;
let plain: TestUser;
let caller: TestUser;

/** Midday UTC `daysAgo` days before today (in today's range at any hour), and its date. */
const dayAgo = (daysAgo: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() - daysAgo);
  d.setUTCHours(12, 0, 0, 0);
  return { at: d, date: d.toISOString().slice(0, 10) };
};

beforeAll(async () => {
  t = await startTestApp();
  ({ admin, plain } = await signUpAdminTrio(t, 'agree'));
  // Only ever made an AI call through the proxy: active, with no message.
  caller = await t.user('agree-caller@example.com');
  const [conv] = await t.db
    .insert(conversations)
    .values({ user_id: plain.id, title: 'Agreement' })
    .returning();
  const msg = (
    daysAgo: number,
    role: 'user' | 'assistant',
    status: 'complete' | 'error' | 'interrupted' = 'complete',
  ) => ({
    user_id: plain.id,
    conversation_id: conv!.id,
    role,
    status,
    provider: 'openai',
    content: 'x',
    created_at: dayAgo(daysAgo).at,
  });
  await t.db.insert(messages).values([
    // Today: three messages sent; one reply failed, one was stopped (interrupted, not failed).
    msg(0, 'user'),
    msg(0, 'assistant'),
    msg(0, 'user'),
    msg(0, 'assistant', 'error'),
    msg(0, 'user'),
    msg(0, 'assistant', 'interrupted'),
    // Yesterday: one message, its reply failed.
    msg(1, 'user'),
    msg(1, 'assistant', 'error'),
  ]);
  const event = (userId: string, daysAgo: number, status: 'ok' | 'error') => ({
    user_id: userId,
    provider: 'openai',
    model: 'gpt-4.1',
    status,
    created_at: dayAgo(daysAgo).at,
  });
  await t.db
    .insert(usageEvents)
    .values([
      event(plain.id, 0, 'ok'),
      event(plain.id, 0, 'error'),
      { ...event(caller.id, 0, 'ok'), source: 'proxy' as const },
      event(plain.id, 1, 'error'),
    ]);
  await t.db.insert(clientErrors).values({ kind: 'render', message: 'boom', user_id: plain.id });
});
afterAll(() => t.close());

describe('the back office counts active users, messages and failed replies one way', () => {
  it('gives the same numbers on the overview, analytics and usage statistics', async () => {
    const today = dayAgo(0).date;
    const yesterday = dayAgo(1).date;
    const [overview, analytics, usage, twoDays, usageTwoDays] = await Promise.all([
      admin.get<AdminOverview>('/rest/v1/admin/overview'),
      admin.get<AnalyticsResponse>('/rest/v1/admin/analytics?days=1'),
      admin.get<UsageStatisticsResponse>(
        `/rest/v1/admin/usage-statistics?from=${today}&to=${today}`,
      ),
      admin.get<AnalyticsResponse>('/rest/v1/admin/analytics?days=2'),
      admin.get<UsageStatisticsResponse>(
        `/rest/v1/admin/usage-statistics?from=${yesterday}&to=${today}`,
      ),
    ]);

    // Today: plain sent messages and the caller made a proxy call; the admins only signed in.
    const expected = { active_users: 2, messages: 3, failed_replies: 1 };
    expect({
      active_users: overview.body.active_today,
      messages: overview.body.messages_today,
      failed_replies: overview.body.errors_breakdown.failed_replies,
    }).toEqual(expected);
    expect(analytics.body.totals).toMatchObject(expected);
    expect(analytics.body.days.find((d) => d.date === today)).toMatchObject(expected);
    expect(usage.body.activity).toEqual(expected);

    // Over both days: plain counts once, yesterday's message and failed reply add up.
    const both = { active_users: 2, messages: 4, failed_replies: 2 };
    expect(twoDays.body.totals).toMatchObject(both);
    expect(usageTwoDays.body.activity).toEqual(both);
    expect(twoDays.body.days.find((d) => d.date === yesterday)).toMatchObject({
      active_users: 1,
      messages: 1,
      failed_replies: 1,
    });
  });

  it("counts each user's messages and last activity the same way in the users table", async () => {
    const res = await admin.get<AdminUsersResponse>('/rest/v1/admin/users?search=agree-');
    const row = (email: string) => res.body.users.find((u) => u.email === email)!;
    expect(row(plain.email)).toMatchObject({ message_count: 4, conversation_count: 1 });
    expect(row(plain.email).last_active?.slice(0, 10)).toBe(dayAgo(0).date);
    expect(row(caller.email)).toMatchObject({ message_count: 0 });
    expect(row(caller.email).last_active?.slice(0, 10)).toBe(dayAgo(0).date);
    expect(row(admin.email).last_active).toBeNull();
  });

  it('keeps these numbers from a plain user', async () => {
    for (const path of [
      '/rest/v1/admin/overview',
      '/rest/v1/admin/analytics?days=1',
      '/rest/v1/admin/usage-statistics',
      '/rest/v1/admin/users',
    ]) {
      expect((await plain.get(path)).status, path).toBe(403);
    }
  });
});
