import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';
import { ApiError } from './errors.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The cookies that make a request act as someone (better-auth's, prefix `chorus`). */
const carriesSession = (cookie: string | undefined) =>
  cookie !== undefined && /(?:^|;\s*)(?:__Secure-)?chorus\.session_(?:token|data)=/.test(cookie);

/**
 * A state-changing request that acts with someone's session must come from one of our own pages:
 * its `Origin` is APP_URL's or one of TRUSTED_ORIGINS. A page elsewhere on the same site could
 * otherwise post a form (a `text/plain` body needs no preflight) and have the browser add the
 * cookie, SameSite=Lax notwithstanding. Requests without a session cookie (a webhook, a guest's
 * contact form) are not at risk and pass; the route's own rules still apply to them.
 */
export const requireTrustedOrigin = (trustedOrigins: string[]) => {
  const trusted = new Set(trustedOrigins);
  return createMiddleware<AppEnv>(async (c, next) => {
    if (safeMethods.has(c.req.method) || !carriesSession(c.req.header('cookie'))) return next();
    const origin = c.req.header('origin');
    if (!origin || !trusted.has(origin)) {
      throw new ApiError(403, 'auth:untrusted_origin');
    }
    return next();
  });
};
