import { messages } from '@chorus/shared/messages';
import { ProfilesRepository, PublicNameTakenError } from '../../../db/repositories/profiles.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { getProfile, patchProfile } from './profile.routes.ts';

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
    if (!profile) throw new ApiError(404, 'profile:not_found', messages.profile.notFound);
    return c.json(profile, 200);
  })
  .openapi(patchProfile, async (c) => {
    const repo = new ProfilesRepository(c.var.deps.database.db, c.var.user.id);
    try {
      const profile = await repo.update(c.req.valid('json'));
      if (!profile) throw new ApiError(404, 'profile:not_found', messages.profile.notFound);
      return c.json(profile, 200);
    } catch (error) {
      if (error instanceof PublicNameTakenError) {
        throw new ApiError(
          409,
          'profile:public_name_taken',
          'That public name is already taken. Please choose another.',
        );
      }
      throw error;
    }
  });
