import { OnboardingRepository } from '../../../db/repositories/onboarding.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { onboardingOf } from './onboarding-steps.ts';
import { getOnboardingRoute, updateOnboardingRoute } from './onboarding.routes.ts';

export const onboardingRouter = createRouter<AuthedEnv>()
  .openapi(getOnboardingRoute, async (c) =>
    c.json(await onboardingOf(c.var.deps, c.var.user.id), 200),
  )
  .openapi(updateOnboardingRoute, async (c) => {
    const { dismissed } = c.req.valid('json');
    const { deps, user } = c.var;
    await new OnboardingRepository(deps.database.db, user.id).setDismissed(dismissed);
    return c.json(await onboardingOf(deps, user.id), 200);
  });
