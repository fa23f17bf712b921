import { messageFor } from '@chorus/shared/error-catalogue';
import {
  AdminPlansRepository,
  FreePlanProtectedError,
  PlanNameTakenError,
} from '../../../../db/repositories/pricing-plans.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import {
  createPricingPlanRoute,
  deletePricingPlanRoute,
  listPricingPlansRoute,
  updatePricingPlanRoute,
} from './pricing-plans.routes.ts';

const planNotFound = () => new ApiError(404, 'plans:not_found');

/** Turns the repository's refusals into answers a person can act on. */
const refused = (error: unknown, name: string | undefined): never => {
  if (error instanceof PlanNameTakenError) {
    throw new ApiError(
      409,
      'plans:name_taken',
      messageFor('plans:name_taken', { name: name ?? '' }),
    );
  }
  if (error instanceof FreePlanProtectedError) {
    throw new ApiError(
      400,
      'plans:free_protected',
      messageFor('plans:free_protected', { change: error.change }),
    );
  }
  throw error;
};

export const adminPricingPlansRouter = createRouter<AuthedEnv>()
  .openapi(listPricingPlansRoute, async (c) => {
    const repo = new AdminPlansRepository(c.var.deps.database.db, c.var.user.id);
    return c.json({ plans: await repo.list() }, 200);
  })
  .openapi(createPricingPlanRoute, async (c) => {
    const input = c.req.valid('json');
    const repo = new AdminPlansRepository(c.var.deps.database.db, c.var.user.id);
    const plan = await repo.create(input).catch((e: unknown) => refused(e, input.name));
    c.var.deps.log.info({ adminId: c.var.user.id, planId: plan.id }, 'pricing plan created');
    return c.json(plan, 201);
  })
  .openapi(updatePricingPlanRoute, async (c) => {
    const { id } = c.req.valid('param');
    const patch = c.req.valid('json');
    const repo = new AdminPlansRepository(c.var.deps.database.db, c.var.user.id);
    const plan = await repo.update(id, patch).catch((e: unknown) => refused(e, patch.name));
    if (!plan) throw planNotFound();
    c.var.deps.log.info({ adminId: c.var.user.id, planId: id }, 'pricing plan changed');
    return c.json(plan, 200);
  })
  .openapi(deletePricingPlanRoute, async (c) => {
    const { id } = c.req.valid('param');
    const repo = new AdminPlansRepository(c.var.deps.database.db, c.var.user.id);
    const result = await repo.remove(id).catch((e: unknown) => refused(e, undefined));
    if (!result) throw planNotFound();
    c.var.deps.log.info({ adminId: c.var.user.id, planId: id }, 'pricing plan deleted');
    return c.json(result, 200);
  });
