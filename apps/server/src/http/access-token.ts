import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  findLiveAccessToken,
  hashAccessToken,
  LAST_USED_EVERY_MS,
  looksLikeAccessToken,
  touchAccessToken,
} from '../db/repositories/access-tokens.ts';
import type { AppEnv, SessionUser } from './app-env.ts';
import { ApiError } from './errors.ts';
import { readAccess } from './session.ts';

/** Who a request acts as, and how it said so. */
export type Caller = { userId: string; via: 'session' | 'token' };

export type CallerEnv = {
  Variables: AppEnv['Variables'] & { user: SessionUser; caller: Caller };
};

/** The bearer credential of the request, if it sends one (`Authorization: Bearer …`). */
export const bearerOf = (header: string | undefined): string | null => {
  const match = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  return match ? match[1]! : null;
};

/**
 * The signed-in user (the cookie session, as requireUser reads it), or the owner of a personal
 * access token sent as `Authorization: Bearer chorus_pat_…`. A request that sends a bearer token
 * is judged by the token alone, cookies or not: live (neither revoked nor expired), scoped to
 * test runs, its owner not suspended — else 401 access_tokens:invalid. The token is never
 * logged or echoed.
 */
export const requireUserOrToken: MiddlewareHandler<CallerEnv> = createMiddleware<CallerEnv>(
  async (c, next) => {
    // Another scheme (a proxy's Basic auth in front of the app) leaves the session to decide.
    const token = bearerOf(c.req.header('authorization'));
    if (token === null) {
      const user = c.var.user as SessionUser | null;
      if (!user) throw new ApiError(401, 'auth:required');
      c.set('caller', { userId: user.id, via: 'session' });
      return next();
    }
    if (!looksLikeAccessToken(token)) throw new ApiError(401, 'access_tokens:invalid');
    const { deps } = c.var;
    const now = new Date();
    const found = await findLiveAccessToken(deps.database.db, hashAccessToken(token), now);
    if (!found || !found.token.scopes.includes('test_runs')) {
      throw new ApiError(401, 'access_tokens:invalid');
    }
    const access = await readAccess(deps, found.user.id);
    if (access.suspended) throw new ApiError(401, 'access_tokens:invalid');
    const lastUsed = found.token.last_used_at?.getTime() ?? 0;
    if (now.getTime() - lastUsed >= LAST_USED_EVERY_MS) {
      await touchAccessToken(deps.database.db, found.token.id, now);
    }
    const { user } = found;
    c.set('user', {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      image: user.image,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    });
    // A token never carries the cookie session's role: it acts as a plain user, for test runs.
    c.set('role', null);
    c.set('session', null);
    c.set('caller', { userId: user.id, via: 'token' });
    return next();
  },
);
