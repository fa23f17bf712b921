import type { Context } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import { findActiveSession } from '../../http/session.ts';

/**
 * `GET /auth/v1/get-session`, answered as better-auth does (`{ session, user }` or `null`) but
 * through `findActiveSession`: a session that ended on another instance, or an account suspended
 * since, reads as signed out at once, not when the signed cookie cache expires (ARCHITECTURE §11).
 */
export const getSession = async (c: Context<AppEnv>) => {
  const disableCookieCache = c.req.query('disableCookieCache') === 'true';
  const found = await findActiveSession(
    c.var.deps,
    c.req.raw.headers,
    disableCookieCache ? { disableCookieCache } : undefined,
  );
  c.header('cache-control', 'no-store');
  if (!found) return c.json(null, 200);
  for (const cookie of found.setCookies) c.header('set-cookie', cookie, { append: true });
  const { token: _token, ...session } = found.session;
  return c.json({ session, user: found.user }, 200);
};
