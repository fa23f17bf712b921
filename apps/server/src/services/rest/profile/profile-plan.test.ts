import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingStatus } from '@chorus/shared/api/billing';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import type { PublicNameAvailability } from '@chorus/shared/api/profile';
import type { ProfileUsage } from '@chorus/shared/api/usage';
import { publicNamePatternMessage } from '@chorus/shared/api/profile';
import { planMessages } from '@chorus/shared/messages';
import { profiles, promptUsage, stripeSubscriptions } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { utcDate } from '../../../quota/quota.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let alice: Awaited<ReturnType<TestApp['user']>>;
let bob: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('root@example.com');
  alice = await t.user('alice@example.com');
  bob = await t.user('bob@example.com');
});
afterAll(() => t.close());

describe('GET /rest/v1/profile/usage', () => {
  it('answers only to a signed-in user', async () => {
    expect((await t.client().get('/rest/v1/profile/usage')).status).toBe(401);
  });

  it("shows the user's own count for today against their plan and when it resets", async () => {
    const plan = (
      await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
        name: 'Starter',
        daily_prompt_limit: 25,
      })
    ).body;
    await t.db.update(profiles).set({ plan_id: plan.id }).where(eq(profiles.id, alice.id));
    const today = utcDate(new Date());
    await t.db.insert(promptUsage).values([
      { user_id: alice.id, date: today, count: 4 },
      { user_id: bob.id, date: today, count: 11 },
      { user_id: alice.id, date: '2020-01-01', count: 99 },
    ]);
    const res = await alice.get<ProfileUsage>('/rest/v1/profile/usage');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ date: today, count: 4, limit: 25, plan_name: 'Starter' });
    const resets = new Date(res.body.resets_at);
    expect(resets.toISOString().slice(11)).toBe('00:00:00.000Z');
    expect(resets.getTime() - Date.now()).toBeGreaterThan(0);
    expect(resets.getTime() - Date.now()).toBeLessThanOrEqual(86_400_000);
    // Bob sees his own count on Free (unlimited), never Alice's.
    expect((await bob.get<ProfileUsage>('/rest/v1/profile/usage')).body).toMatchObject({
      count: 11,
      limit: null,
      plan_name: 'Free',
    });
  });
});

describe('GET /rest/v1/profile/public-name-available', () => {
  const check = (who: typeof alice, name: string) =>
    who.get<PublicNameAvailability>(
      `/rest/v1/profile/public-name-available?name=${encodeURIComponent(name)}`,
    );

  it('says whether a name is free, case-insensitively, counting your own name as yours', async () => {
    expect((await t.client().get('/rest/v1/profile/public-name-available?name=x')).status).toBe(
      401,
    );
    expect((await alice.patch('/rest/v1/profile', { public_name: 'Alice' })).status).toBe(200);
    expect((await check(bob, 'alice')).body).toEqual({
      name: 'alice',
      available: false,
      reason: 'That public name is already taken.',
    });
    expect((await check(alice, 'ALICE')).body.available).toBe(true);
    expect((await check(bob, 'bobby')).body).toMatchObject({ available: true, reason: null });
    expect((await check(bob, 'has space')).body).toEqual({
      name: 'has space',
      available: false,
      reason: publicNamePatternMessage,
    });
    expect((await bob.get('/rest/v1/profile/public-name-available?name=')).status).toBe(400);
  });
});

describe('GET /rest/v1/profile/billing without Stripe keys', () => {
  it('says payments are off and shows the latest subscription row of the user only', async () => {
    const none = await alice.get<BillingStatus>('/rest/v1/profile/billing');
    expect(none.body).toEqual({ payments_enabled: false, subscription: null, plans: [] });
    await t.db.insert(stripeSubscriptions).values([
      { user_id: alice.id, status: 'canceled', created_at: new Date('2024-01-01T00:00:00Z') },
      { user_id: alice.id, status: 'active', created_at: new Date('2024-06-01T00:00:00Z') },
    ]);
    const res = await alice.get<BillingStatus>('/rest/v1/profile/billing');
    expect(res.body.subscription).toMatchObject({
      status: 'active',
      created_at: '2024-06-01T00:00:00.000Z',
    });
    expect((await bob.get<BillingStatus>('/rest/v1/profile/billing')).body.subscription).toBeNull();
  });

  it('answers checkout and webhook calls with 404 and says admins assign plans', async () => {
    const plan = (await admin.get<{ plans: AdminPricingPlan[] }>('/rest/v1/admin/pricing-plans'))
      .body.plans[0]!;
    const checkout = await alice.post('/functions/v1/create-checkout-session', {
      plan_id: plan.id,
    });
    expect(checkout.status).toBe(404);
    expect(checkout.body).toEqual({
      error: planMessages.paymentsNotConfigured,
      code: 'billing:not_configured',
    });
    const hook = await t.client().request('POST', '/functions/v1/stripe-webhook', '{}', {
      'stripe-signature': 't=1,v1=abc',
    });
    expect(hook.status).toBe(404);
    expect(hook.body).toMatchObject({ error: planMessages.paymentsNotConfigured });
  });
});
