import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPricingPlan } from '@chorus/shared/api/plans';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

type Received = { method: string; path: string; auth: string; form: URLSearchParams };

/**
 * A stand-in for api.stripe.com on localhost: the real Stripe client talks its real wire format
 * (form-encoded POST /v1/checkout/sessions, bearer secret key) to it.
 */
let stripeApi: Server;
const received: Received[] = [];
let failNext = false;

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let alice: Awaited<ReturnType<TestApp['user']>>;
let pro: AdminPricingPlan;
let handMade: AdminPricingPlan;

beforeAll(async () => {
  stripeApi = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        auth: req.headers.authorization ?? '',
        form: new URLSearchParams(body),
      });
      res.setHeader('content-type', 'application/json');
      if (failNext) {
        failNext = false;
        res.statusCode = 400;
        res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such price' } }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          id: 'cs_test_123',
          object: 'checkout.session',
          url: 'https://checkout.stripe.com/c/pay/cs_test_123',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  const { port } = stripeApi.address() as AddressInfo;
  t = await startTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_chorus_checkout_0001',
      STRIPE_WEBHOOK_SECRET: 'whsec_chorus_checkout_0001',
      STRIPE_API_URL: `http://127.0.0.1:${port}`,
    },
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
  handMade = (
    await admin.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', { name: 'Partner' })
  ).body;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => stripeApi.close(resolve));
});

describe('POST /functions/v1/create-checkout-session', () => {
  it('needs a signed-in user', async () => {
    const res = await t.client().post('/functions/v1/create-checkout-session', { plan_id: pro.id });
    expect(res.status).toBe(401);
    expect(received).toHaveLength(0);
  });

  it('creates a subscription Checkout for the plan price that returns to /profile', async () => {
    const res = await alice.post<{ url: string }>('/functions/v1/create-checkout-session', {
      plan_id: pro.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: 'https://checkout.stripe.com/c/pay/cs_test_123' });
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      auth: 'Bearer sk_test_chorus_checkout_0001',
    });
    const form = call!.form;
    expect(form.get('mode')).toBe('subscription');
    expect(form.get('line_items[0][price]')).toBe('price_pro_monthly');
    expect(form.get('line_items[0][quantity]')).toBe('1');
    expect(form.get('success_url')).toBe(`${TEST_APP_URL}/profile?checkout=success`);
    expect(form.get('cancel_url')).toBe(`${TEST_APP_URL}/profile?checkout=cancelled`);
    expect(form.get('client_reference_id')).toBe(alice.id);
    expect(form.get('customer_email')).toBe('alice@example.com');
    expect(form.get('subscription_data[metadata][user_id]')).toBe(alice.id);
    expect(form.get('subscription_data[metadata][plan_id]')).toBe(pro.id);
  });

  it('refuses plans without a Stripe price, unknown plans, and bad input, without calling Stripe', async () => {
    received.length = 0;
    const notForSale = await alice.post<{ error: string }>(
      '/functions/v1/create-checkout-session',
      {
        plan_id: handMade.id,
      },
    );
    expect(notForSale.status).toBe(400);
    expect(notForSale.body.error).toBe(
      'The Partner plan is not sold through Stripe; an admin assigns it.',
    );
    const unknown = await alice.post('/functions/v1/create-checkout-session', {
      plan_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(
      (await alice.post('/functions/v1/create-checkout-session', { plan_id: 'x' })).status,
    ).toBe(400);
    expect(received).toHaveLength(0);
  });

  it('answers 502 with a plain message when Stripe refuses', async () => {
    failNext = true;
    const res = await alice.post<{ error: string; code: string }>(
      '/functions/v1/create-checkout-session',
      { plan_id: pro.id },
    );
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'billing:stripe_failed' });
    expect(res.body.error).not.toContain('sk_test');
  });
});
