import { findPlanById } from '../../../db/repositories/plans.ts';
import { requireStripe, stripeClient } from '../../../billing/stripe.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { createCheckoutSessionRoute } from './create-checkout-session.routes.ts';
import { messageFor } from '@chorus/shared/error-catalogue';

export const createCheckoutSessionRouter = createRouter<AuthedEnv>().openapi(
  createCheckoutSessionRoute,
  async (c) => {
    const { config, database, log } = c.var.deps;
    const stripe = requireStripe(config);
    const { user } = c.var;
    const { plan_id } = c.req.valid('json');
    const plan = await findPlanById(database.db, plan_id);
    if (!plan) {
      throw new ApiError(404, 'plans:not_found');
    }
    if (!plan.stripe_price_id) {
      throw new ApiError(
        400,
        'billing:not_for_sale',
        messageFor('billing:not_for_sale', { plan: plan.name }),
      );
    }
    const metadata = { user_id: user.id, plan_id: plan.id };
    try {
      const session = await stripeClient(stripe).checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: plan.stripe_price_id, quantity: 1 }],
        success_url: `${config.appUrl}/profile?checkout=success`,
        cancel_url: `${config.appUrl}/profile?checkout=cancelled`,
        client_reference_id: user.id,
        customer_email: user.email,
        metadata,
        subscription_data: { metadata },
      });
      if (!session.url) throw new Error('Stripe answered a session without a URL');
      log.info({ userId: user.id, planId: plan.id }, 'checkout started');
      return c.json({ url: session.url }, 200);
    } catch (error) {
      log.warn(
        { userId: user.id, err: error instanceof Error ? error.message : String(error) },
        'checkout session failed',
      );
      throw new ApiError(502, 'billing:stripe_failed');
    }
  },
);
