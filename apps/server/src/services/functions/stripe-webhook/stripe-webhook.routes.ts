import { createRoute, z } from '@hono/zod-openapi';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';

export const stripeWebhookRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/stripe-webhook',
  tags: ['Billing'],
  summary: 'Stripe events (signature-verified): keeps subscriptions and plans in step',
  description:
    'The raw body is verified against the `Stripe-Signature` header with STRIPE_WEBHOOK_SECRET. Handles checkout.session.completed and customer.subscription.updated / deleted; other events are acknowledged and ignored.',
  responses: {
    200: jsonContent(z.object({ received: z.literal(true) }), 'Handled or ignored'),
    400: errorResponse('Missing or invalid signature'),
    404: errorResponse('Payments are not configured'),
  },
});
