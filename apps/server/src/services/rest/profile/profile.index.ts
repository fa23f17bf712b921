import { publicNamePattern, publicNamePatternMessage } from '@chorus/shared/api/profile';
import { latestSubscription } from '../../../db/repositories/billing.ts';
import { findPlanForUser, listPurchasablePlans } from '../../../db/repositories/pricing-plans.ts';
import { UsageRepository } from '../../../db/repositories/usage.ts';
import { nextUtcMidnight, utcDate } from '../../../quota/quota.ts';
import { ProfilesRepository, PublicNameTakenError } from '../../../db/repositories/profiles.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import {
  getProfile,
  getProfileBilling,
  getProfileUsage,
  getPublicNameAvailability,
  patchProfile,
} from './profile.routes.ts';

export const profileRouter = createRouter<AuthedEnv>()
  .openapi(getProfile, async (c) => {
    const { user, deps } = c.var;
    const repo = new ProfilesRepository(deps.database.db, user.id);
    let profile = await repo.get();
    if (!profile) {
      // Sign-up provisioning failed earlier; heal instead of showing a broken account.
      await repo.ensure({ email: user.email, name: user.name });
      profile = await repo.get();
    }
    if (!profile) throw new ApiError(404, 'profile:not_found');
    return c.json(profile, 200);
  })
  .openapi(patchProfile, async (c) => {
    const repo = new ProfilesRepository(c.var.deps.database.db, c.var.user.id);
    try {
      const profile = await repo.update(c.req.valid('json'));
      if (!profile) throw new ApiError(404, 'profile:not_found');
      return c.json(profile, 200);
    } catch (error) {
      if (error instanceof PublicNameTakenError) {
        throw new ApiError(409, 'profile:public_name_taken');
      }
      throw error;
    }
  })
  .openapi(getProfileUsage, async (c) => {
    const { db } = c.var.deps.database;
    const now = new Date();
    const date = utcDate(now);
    const [plan, count] = await Promise.all([
      findPlanForUser(db, c.var.user.id),
      new UsageRepository(db, c.var.user.id).countOn(date),
    ]);
    return c.json(
      {
        date,
        count,
        limit: plan.daily_prompt_limit,
        plan_name: plan.name,
        resets_at: nextUtcMidnight(now).toISOString(),
      },
      200,
    );
  })
  .openapi(getPublicNameAvailability, async (c) => {
    const { name } = c.req.valid('query');
    if (!publicNamePattern.test(name)) {
      return c.json({ name, available: false, reason: publicNamePatternMessage }, 200);
    }
    const repo = new ProfilesRepository(c.var.deps.database.db, c.var.user.id);
    const available = await repo.isPublicNameAvailable(name);
    return c.json(
      { name, available, reason: available ? null : 'That public name is already taken.' },
      200,
    );
  })
  .openapi(getProfileBilling, async (c) => {
    const { db } = c.var.deps.database;
    const paymentsEnabled = Boolean(c.var.deps.config.stripe);
    const [subscription, plans] = await Promise.all([
      latestSubscription(db, c.var.user.id),
      paymentsEnabled ? listPurchasablePlans(db) : Promise.resolve([]),
    ]);
    return c.json(
      {
        payments_enabled: paymentsEnabled,
        subscription,
        plans: plans.map((p) => ({
          id: p.id,
          name: p.name,
          price_cents: p.price_cents,
          daily_prompt_limit: p.daily_prompt_limit,
        })),
      },
      200,
    );
  });
