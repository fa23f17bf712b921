import { and, desc, eq } from 'drizzle-orm';
import type { Subscription } from '@chorus/shared/api/billing';
import type { Db } from '../client.ts';
import { pricingPlans, profiles, stripeSubscriptions } from '../schema/index.ts';
import { findFreePlan } from './plans.ts';

/** The user's latest subscription row (spec §7: stripe_subscriptions, latest by created_at). */
export const latestSubscription = async (db: Db, userId: string): Promise<Subscription | null> => {
  const [row] = await db
    .select({ sub: stripeSubscriptions, plan_name: pricingPlans.name })
    .from(stripeSubscriptions)
    .leftJoin(pricingPlans, eq(pricingPlans.id, stripeSubscriptions.plan_id))
    .where(eq(stripeSubscriptions.user_id, userId))
    .orderBy(desc(stripeSubscriptions.created_at))
    .limit(1);
  if (!row) return null;
  return {
    status: row.sub.status,
    plan_id: row.sub.plan_id,
    plan_name: row.plan_name,
    current_period_end: row.sub.current_period_end?.toISOString() ?? null,
    created_at: row.sub.created_at.toISOString(),
  };
};

export const findPlanByStripePrice = async (db: Db, priceId: string) =>
  (
    await db.select().from(pricingPlans).where(eq(pricingPlans.stripe_price_id, priceId)).limit(1)
  )[0];

export type SubscriptionChange = {
  userId: string;
  subscriptionId: string;
  customerId: string | null;
  planId: string | null;
  status: string;
  currentPeriodEnd: Date | null;
};

/** Statuses that keep the paid plan; anything else ends it. `past_due` is Stripe's grace period. */
const payingStatuses = new Set(['active', 'trialing', 'past_due']);

/**
 * Webhook writes, which act for Stripe rather than for a signed-in user: the user comes from
 * the subscription's own metadata or its stored row. Keeps stripe_subscriptions and the
 * profile's plan in step, in one transaction.
 */
export const applySubscriptionChange = async (
  db: Db,
  change: SubscriptionChange,
): Promise<'applied' | 'unknown_user'> => {
  const free = await findFreePlan(db);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(stripeSubscriptions)
      .where(eq(stripeSubscriptions.stripe_subscription_id, change.subscriptionId))
      .limit(1);
    const userId = existing?.user_id ?? change.userId;
    if (!existing) {
      const [profile] = await tx
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(profiles.id, userId))
        .limit(1);
      if (!profile) return 'unknown_user' as const;
    }
    const planId = change.planId ?? existing?.plan_id ?? null;
    if (existing) {
      await tx
        .update(stripeSubscriptions)
        .set({
          status: change.status,
          plan_id: planId,
          current_period_end: change.currentPeriodEnd ?? existing.current_period_end,
          stripe_customer_id: change.customerId ?? existing.stripe_customer_id,
        })
        .where(eq(stripeSubscriptions.id, existing.id));
    } else {
      await tx.insert(stripeSubscriptions).values({
        user_id: userId,
        stripe_subscription_id: change.subscriptionId,
        stripe_customer_id: change.customerId,
        plan_id: planId,
        status: change.status,
        current_period_end: change.currentPeriodEnd,
      });
    }
    if (payingStatuses.has(change.status)) {
      if (planId) await tx.update(profiles).set({ plan_id: planId }).where(eq(profiles.id, userId));
    } else if (planId) {
      // Back to Free, unless an admin has meanwhile put the user on another plan.
      await tx
        .update(profiles)
        .set({ plan_id: free.id })
        .where(and(eq(profiles.id, userId), eq(profiles.plan_id, planId)));
    }
    return 'applied' as const;
  });
};
