import { z } from 'zod';

export const checkoutRequestSchema = z.object({ plan_id: z.uuid('Pick a plan') }).strict();
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const checkoutResponseSchema = z.object({ url: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** The latest `stripe_subscriptions` row of the user (spec §7), or none. */
export const subscriptionSchema = z.object({
  status: z.string(),
  plan_id: z.string().nullable(),
  plan_name: z.string().nullable(),
  current_period_end: z.string().nullable(),
  created_at: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** A plan a user can buy through Checkout. */
export const purchasablePlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  price_cents: z.number().int(),
  daily_prompt_limit: z.number().int().nullable(),
});
export type PurchasablePlan = z.infer<typeof purchasablePlanSchema>;

export const billingStatusSchema = z.object({
  /** Whether Stripe keys are configured; without them admins assign plans. */
  payments_enabled: z.boolean(),
  subscription: subscriptionSchema.nullable(),
  plans: z.array(purchasablePlanSchema),
});
export type BillingStatus = z.infer<typeof billingStatusSchema>;
