import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../http/app-env.ts';
import { ApiError } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { findActiveSession } from '../../http/session.ts';

/** better-auth's lifetime of a "don't remember me" session (its internal adapter's createSession). */
const dontRememberSeconds = 60 * 60 * 24;

/**
 * `POST /auth/v1/refresh-session`: the web's session manager forcing a sliding refresh. The
 * session's expiry moves to now + `expiresIn` (7 days, as better-auth's own get-session refresh
 * does once a day) and the cookie's Max-Age with it. Answers like `GET /auth/v1/get-session`,
 * without the session token; limited by the `token_refresh` window per user.
 */
export const refreshSession = async (c: Context<AppEnv>) => {
  const { auth } = c.var.deps;
  const found = await findActiveSession(c.var.deps, c.req.raw.headers, {
    disableCookieCache: true,
    disableRefresh: true,
  });
  if (!found) throw new ApiError(401, 'auth:required');

  const limited = await rateLimit('token_refresh', () => found.user.id)(c, async () => undefined);
  if (limited) return limited;

  const ctx = await auth.$context;
  const cookies = ctx.authCookies;
  // Such a session lives as long as the browser does; better-auth never slides it by 7 days.
  const dontRemember = getCookie(c, cookies.dontRememberToken.name) !== undefined;
  const lifetimeSeconds = dontRemember ? dontRememberSeconds : ctx.sessionConfig.expiresIn;
  const updated = await ctx.internalAdapter.updateSession(found.session.token, {
    expiresAt: new Date(Date.now() + lifetimeSeconds * 1000),
    updatedAt: new Date(),
  });
  if (!updated) throw new ApiError(401, 'auth:required');

  // getSession verified the signed cookie; the token is unchanged, so its signed value is re-sent
  // with a fresh Max-Age rather than signed again.
  const signedToken = getCookie(c, cookies.sessionToken.name);
  if (signedToken) {
    const a = cookies.sessionToken.attributes;
    setCookie(c, cookies.sessionToken.name, signedToken, {
      path: a.path ?? '/',
      domain: a.domain,
      secure: a.secure,
      httpOnly: a.httpOnly,
      sameSite: a.sameSite,
      partitioned: a.partitioned,
      maxAge: dontRemember ? undefined : lifetimeSeconds,
    });
  }

  // The signed cookie cache still holds the old expiry: drop it, so the next read takes the new
  // one from the database and caches that.
  const cache = cookies.sessionData;
  setCookie(c, cache.name, '', {
    path: cache.attributes.path ?? '/',
    domain: cache.attributes.domain,
    secure: cache.attributes.secure,
    httpOnly: cache.attributes.httpOnly,
    sameSite: cache.attributes.sameSite,
    maxAge: 0,
  });

  const { token: _token, ...session } = found.session;
  c.header('cache-control', 'no-store');
  return c.json(
    {
      session: { ...session, expiresAt: updated.expiresAt, updatedAt: updated.updatedAt },
      user: found.user,
    },
    200,
  );
};
