import { createRoute } from '@hono/zod-openapi';
import { checkoutRequestSchema, checkoutResponseSchema } from '@chorus/shared/api/billing';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const createCheckoutSessionRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/create-checkout-session',
  tags: ['Billing'],
  summary: 'Start a Stripe Checkout for a plan that has a Stripe price; answers its URL',
  description:
    'Needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET; without them it answers 404 and admins assign plans. Checkout returns to /profile.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: checkoutRequestSchema } }, required: true },
  },
  responses: {
    200: jsonContent(checkoutResponseSchema, 'Where to send the browser'),
    400: errorResponse('Invalid input, or the plan is not sold through Stripe'),
    401: errorResponse('Not signed in'),
    404: errorResponse('Payments are not configured, or no such plan'),
    502: errorResponse('Stripe refused or did not answer'),
  },
});
