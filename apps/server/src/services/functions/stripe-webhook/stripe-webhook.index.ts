import type Stripe from 'stripe';
import { requireStripe, stripeClient } from '../../../billing/stripe.ts';
import {
  applySubscriptionChange,
  findPlanByStripePrice,
} from '../../../db/repositories/billing.ts';
import type { Db } from '../../../db/client.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { stripeWebhookRoute } from './stripe-webhook.routes.ts';

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  v == null ? null : typeof v === 'string' ? v : v.id;

/** The plan a subscription is for: by its price, else the plan named in its metadata. */
const planOfSubscription = async (db: Db, sub: Stripe.Subscription): Promise<string | null> => {
  const priceId = sub.items?.data?.[0]?.price?.id;
  const byPrice = priceId ? await findPlanByStripePrice(db, priceId) : undefined;
  return byPrice?.id ?? sub.metadata?.plan_id ?? null;
};

const periodEnd = (sub: Stripe.Subscription): Date | null => {
  // Newer API versions keep the period on the item; older ones on the subscription.
  const seconds =
    sub.items?.data?.[0]?.current_period_end ??
    (sub as unknown as { current_period_end?: number }).current_period_end;
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
};

export const stripeWebhookRouter = createRouter<AuthedEnv>().openapi(
  stripeWebhookRoute,
  async (c) => {
    const { config, database, log } = c.var.deps;
    const settings = requireStripe(config);
    const signature = c.req.header('stripe-signature');
    // The signature covers the exact bytes Stripe sent, so the body is read raw, never re-serialised.
    const payload = Buffer.from(await c.req.arrayBuffer());
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no signature header');
      event = stripeClient(settings).webhooks.constructEvent(
        payload,
        signature,
        settings.webhookSecret,
      );
    } catch (error) {
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'stripe webhook refused',
      );
      throw new ApiError(400, 'billing:bad_signature');
    }
    const db = database.db;
    let outcome: 'applied' | 'unknown_user' | 'ignored' = 'ignored';
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const userId = session.client_reference_id ?? session.metadata?.user_id;
        const subscriptionId = idOf(session.subscription);
        if (userId && subscriptionId) {
          outcome = await applySubscriptionChange(db, {
            userId,
            subscriptionId,
            customerId: idOf(session.customer),
            planId: session.metadata?.plan_id ?? null,
            status: 'active',
            currentPeriodEnd: null,
          });
        }
        break;
      }
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const userId = sub.metadata?.user_id;
        if (!userId) {
          log.warn({ subscription: sub.id }, 'subscription without a Chorus user; ignored');
          break;
        }
        outcome = await applySubscriptionChange(db, {
          userId,
          subscriptionId: sub.id,
          customerId: idOf(sub.customer),
          planId: await planOfSubscription(db, sub),
          status: event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status,
          currentPeriodEnd: periodEnd(sub),
        });
        break;
      }
      default:
        break;
    }
    // An unknown user is acknowledged too: Stripe retrying would not make them exist.
    log.info({ type: event.type, id: event.id, outcome }, 'stripe event handled');
    return c.json({ received: true as const }, 200);
  },
);
