import { createRoute, z } from '@hono/zod-openapi';
import {
  adminPricingPlanSchema,
  adminPricingPlansResponseSchema,
  createPricingPlanSchema,
  deletePricingPlanResponseSchema,
  updatePricingPlanSchema,
} from '@chorus/shared/api/plans';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

const planParams = z.object({ id: z.uuid('Not a plan id') });

export const listPricingPlansRoute = createRoute({
  method: 'get',
  path: '/admin/pricing-plans',
  summary: 'Every pricing plan with how many users are on it, Free first (admins only)',
  ...adminOnly,
  responses: {
    200: jsonContent(adminPricingPlansResponseSchema, 'The plans'),
    ...adminRefusals,
  },
});

export const createPricingPlanRoute = createRoute({
  method: 'post',
  path: '/admin/pricing-plans',
  summary: 'Create a plan; written to the audit log',
  description:
    '`daily_prompt_limit` null is unlimited; empty `allowed_providers` / `allowed_models` allow all. `stripe_price_id` makes the plan purchasable through Stripe Checkout.',
  ...adminOnly,
  request: {
    body: { content: { 'application/json': { schema: createPricingPlanSchema } }, required: true },
  },
  responses: {
    201: jsonContent(adminPricingPlanSchema, 'The new plan'),
    400: errorResponse('Invalid input'),
    ...adminRefusals,
    409: errorResponse('A plan with that name exists'),
  },
});

export const updatePricingPlanRoute = createRoute({
  method: 'patch',
  path: '/admin/pricing-plans/{id}',
  summary: 'Change a plan; written to the audit log. Free cannot be renamed.',
  ...adminOnly,
  request: {
    params: planParams,
    body: { content: { 'application/json': { schema: updatePricingPlanSchema } }, required: true },
  },
  responses: {
    200: jsonContent(adminPricingPlanSchema, 'The changed plan'),
    400: errorResponse('Invalid input, or renaming Free'),
    ...adminRefusals,
    404: errorResponse('No such plan'),
    409: errorResponse('A plan with that name exists'),
  },
});

export const deletePricingPlanRoute = createRoute({
  method: 'delete',
  path: '/admin/pricing-plans/{id}',
  summary:
    "Delete a plan, moving its users to Free; written to the audit log. Free can't be deleted.",
  ...adminOnly,
  request: { params: planParams },
  responses: {
    200: jsonContent(deletePricingPlanResponseSchema, 'Deleted; how many users moved to Free'),
    400: errorResponse('Deleting Free, or a malformed id'),
    ...adminRefusals,
    404: errorResponse('No such plan'),
  },
});
