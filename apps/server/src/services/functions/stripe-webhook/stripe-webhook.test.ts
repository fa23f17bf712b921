import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import type { Profile } from '@chorus/shared/api/profile';
import { stripeSubscriptions } from '../../../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

const WEBHOOK_SECRET = 'whsec_chorus_test_secret_0001';
const stripe = new Stripe('sk_test_chorus_0001');

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let alice: Awaited<ReturnType<TestApp['user']>>;
let pro: AdminPricingPlan;

beforeAll(async () => {
  t = await startTestApp({
    env: { STRIPE_SECRET_KEY: 'sk_test_chorus_0001', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
  });
  admin = await t.user('root@example.com');
  alice = await t.user('alice@example.com');
  pro = (
    await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', {
      name: 'Pro',
      price_cents: 1200,
      stripe_price_id: 'price_pro_monthly',
    })
  ).body;
});
afterAll(() => t.close());

/** Posts the exact bytes, signed (or not) the way Stripe signs them. */
const deliver = (payload: string, signature: string | null) =>
  t.app.request('/functions/v1/stripe-webhook', {
    method: 'POST',
    headers: {
      origin: TEST_APP_URL,
      'content-type': 'application/json',
      ...(signature !== null && { 'stripe-signature': signature }),
    },
    body: payload,
  });

const sign = (payload: string, secret = WEBHOOK_SECRET) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret });

/** A pretty-printed body with non-ASCII text: re-serialising it would break the signature. */
const eventBody = (type: string, object: Record<string, unknown>) =>
  JSON.stringify(
    { id: `evt_${type}`, object: 'event', type, data: { object: { ...object, note: 'Grüße ✓' } } },
    null,
    2,
  );

const planOfAlice = async () => (await alice.get<Profile>('/rest/v1/profile')).body.plan.name;
const subscriptionRows = () =>
  t.db.select().from(stripeSubscriptions).where(eq(stripeSubscriptions.user_id, alice.id));

describe('POST /functions/v1/stripe-webhook', () => {
  it('refuses an unsigned, wrongly signed or altered delivery with 400 and changes nothing', async () => {
    const body = eventBody('checkout.session.completed', {
      object: 'checkout.session',
      client_reference_id: alice.id,
      subscription: 'sub_forged',
      metadata: { user_id: alice.id, plan_id: pro.id },
    });
    const unsigned = await deliver(body, null);
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ code: 'billing:bad_signature' });
    expect((await deliver(body, sign(body, 'whsec_someone_else_0002'))).status).toBe(400);
    expect((await deliver(body.replace('sub_forged', 'sub_forgeX'), sign(body))).status).toBe(400);
    expect((await deliver(`${body} `, sign(body))).status).toBe(400);
    expect(await subscriptionRows()).toEqual([]);
    expect(await planOfAlice()).toBe('Free');
  });

  it('moves the user onto the plan when checkout completes, keeping the subscription row', async () => {
    const body = eventBody('checkout.session.completed', {
      id: 'cs_test_1',
      object: 'checkout.session',
      client_reference_id: alice.id,
      customer: 'cus_alice',
      subscription: 'sub_alice',
      metadata: { user_id: alice.id, plan_id: pro.id },
    });
    const res = await deliver(body, sign(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(await planOfAlice()).toBe('Pro');
    expect(await subscriptionRows()).toMatchObject([
      {
        stripe_subscription_id: 'sub_alice',
        stripe_customer_id: 'cus_alice',
        plan_id: pro.id,
        status: 'active',
      },
    ]);
    // A redelivery changes nothing.
    expect((await deliver(body, sign(body))).status).toBe(200);
    expect(await subscriptionRows()).toHaveLength(1);
  });

  it('follows subscription updates and puts the user back on Free when it is deleted', async () => {
    const periodEnd = Math.floor(Date.parse('2030-01-01T00:00:00Z') / 1000);
    const subscription = (status: string) => ({
      id: 'sub_alice',
      object: 'subscription',
      customer: 'cus_alice',
      status,
      metadata: { user_id: alice.id, plan_id: pro.id },
      items: {
        object: 'list',
        data: [{ id: 'si_1', price: { id: 'price_pro_monthly' }, current_period_end: periodEnd }],
      },
    });
    const pastDue = eventBody('customer.subscription.updated', subscription('past_due'));
    expect((await deliver(pastDue, sign(pastDue))).status).toBe(200);
    expect(await planOfAlice()).toBe('Pro');
    expect((await subscriptionRows())[0]).toMatchObject({
      status: 'past_due',
      current_period_end: new Date('2030-01-01T00:00:00Z'),
    });

    const deleted = eventBody('customer.subscription.deleted', subscription('canceled'));
    expect((await deliver(deleted, sign(deleted))).status).toBe(200);
    expect(await planOfAlice()).toBe('Free');
    expect((await subscriptionRows())[0]).toMatchObject({ status: 'canceled' });
  });

  it('acknowledges events it does not handle and subscriptions of unknown users', async () => {
    const other = eventBody('invoice.paid', { object: 'invoice' });
    expect((await deliver(other, sign(other))).status).toBe(200);
    const stranger = eventBody('customer.subscription.updated', {
      id: 'sub_stranger',
      object: 'subscription',
      status: 'active',
      metadata: { user_id: 'no-such-user', plan_id: pro.id },
      items: { object: 'list', data: [] },
    });
    expect((await deliver(stranger, sign(stranger))).status).toBe(200);
    expect(
      await t.db
        .select()
        .from(stripeSubscriptions)
        .where(eq(stripeSubscriptions.stripe_subscription_id, 'sub_stranger')),
    ).toEqual([]);
  });
});
