import { getCookieCache, getSessionCookie } from 'better-auth/cookies';
import { createMiddleware } from 'hono/factory';
import { isAdminRole, type Role } from '@chorus/shared/roles';
import { findAccess } from '../db/repositories/roles.ts';
import { AUTH_COOKIE_PREFIX, secureCookies } from '../services/auth/auth.ts';
import { SESSION_UNANNOUNCED_TRUST_MS } from '../services/auth/session-cache.ts';
import type { AppEnv, AuthedEnv, Deps, SessionInfo, SessionUser } from './app-env.ts';
import { ApiError } from './errors.ts';
import { databaseFault } from './health.ts';

export type ActiveSession = { user: SessionUser; session: SessionInfo; role: Role | null };

type FoundSession = { user: SessionUser; session: SessionInfo; setCookies: string[] };

/** How far another instance's clock may be ahead of ours, for a cache it made. */
const CLOCK_MARGIN_MS = 1_000;

/**
 * Whether a cookie cache made at `madeAt` may still stand for its session: it is young, or
 * every session that ended since it was made has been announced here (`heardSince`, null while
 * this instance's feed is down, is before it).
 */
export const cacheTrusted = (madeAt: number, heardSince: number | null, now: number): boolean =>
  now - madeAt <= SESSION_UNANNOUNCED_TRUST_MS ||
  (heardSince !== null && heardSince <= madeAt - CLOCK_MARGIN_MS);

/**
 * The session from its signed cookie cache alone, as better-auth's get-session reads it (the
 * cache's HMAC and expiry, its token equal to the session cookie's, version "1"), without the
 * endpoint machinery around it: a few hundredths of a millisecond instead of one.
 *
 * The cache lives SESSION_COOKIE_CACHE_SECONDS, but it is trusted that long only if this
 * instance has heard every ended session announced since the cache was made (its invalidation
 * feed has been up since before then, with a second's margin for other instances' clocks);
 * otherwise for SESSION_UNANNOUNCED_TRUST_MS. `stale` when it exists but is not trusted:
 * better-auth must then read the database, not the cache.
 */
const fromCookieCache = async (
  deps: Pick<Deps, 'config' | 'invalidation'>,
  headers: Headers,
): Promise<FoundSession | 'stale' | null> => {
  const cached = await getCookieCache(headers, {
    secret: deps.config.authSecret,
    strategy: 'compact',
    cookiePrefix: AUTH_COOKIE_PREFIX,
    isSecure: secureCookies(deps.config),
  });
  if (!cached || (cached.version ?? '1') !== '1') return null;
  const signed = getSessionCookie(headers, { cookiePrefix: AUTH_COOKIE_PREFIX });
  if (!signed) return null;
  let token: string;
  try {
    token = decodeURIComponent(signed).split('.')[0]!;
  } catch {
    return null;
  }
  if (token !== cached.session.token) return null;
  if (!cacheTrusted(cached.updatedAt, deps.invalidation.heardSince(), Date.now())) return 'stale';
  return {
    user: cached.user as SessionUser,
    session: cached.session as SessionInfo,
    setCookies: [],
  };
};

const fromBetterAuth = async (
  deps: Pick<Deps, 'auth' | 'database'>,
  headers: Headers,
  query?: { disableCookieCache?: boolean; disableRefresh?: boolean },
): Promise<FoundSession | null> => {
  let answer;
  try {
    answer = await deps.auth.api.getSession({
      headers,
      returnHeaders: true,
      ...(query && { query }),
    });
  } catch (error) {
    // better-auth turns a failed database read into "Failed to get session" without its cause:
    // when the database is what failed, this is a 503 like any other request's, not a 500.
    throw (await databaseFault(deps)) ?? error;
  }
  const { headers: answered, response: found } = answer;
  return found
    ? { user: found.user, session: found.session, setCookies: answered?.getSetCookie() ?? [] }
    : null;
};

/**
 * The session the request's cookies name, with the user's role, unless there is none or the
 * account is suspended. The one place where a suspended account counts as signed out: the API
 * (`loadSession`), get-session, the forced refresh and the realtime socket all ask here. Signing
 * in while suspended is refused by the session-create hook in auth.ts.
 *
 * Fast path (ARCHITECTURE §11): the session comes from better-auth's signed cookie cache
 * (session-cache.ts), verified here, and the role and suspension from a cache that every
 * instance empties on a change and that expires within 5 s, so most requests cost no database
 * round trip here.
 * Sessions that ended (sign-out, revocation) are announced to every instance and refused despite
 * their cookie cache. `setCookies` are the cookies better-auth wants to renew (a refreshed cookie
 * cache): the caller sends them.
 */
export const findActiveSession = async (
  deps: Pick<Deps, 'auth' | 'config' | 'database' | 'caches' | 'invalidation'>,
  headers: Headers,
  query?: { disableCookieCache?: boolean; disableRefresh?: boolean },
): Promise<(ActiveSession & { setCookies: string[] }) | null> => {
  const cached = query?.disableCookieCache ? null : await fromCookieCache(deps, headers);
  const found =
    cached && cached !== 'stale'
      ? cached
      : await fromBetterAuth(
          deps,
          headers,
          cached === 'stale' ? { ...query, disableCookieCache: true } : query,
        );
  if (!found || deps.caches.endedSessions.has(found.session.id)) return null;
  const access = await readAccess(deps, found.user.id);
  if (access.suspended) return null;
  return { ...found, role: access.role };
};

/** A user's role and suspension, from the cache (ACCESS_TTL_MS) or the database. */
export const readAccess = (deps: Pick<Deps, 'database' | 'caches'>, userId: string) =>
  deps.caches.access.get(
    userId,
    async () => (await findAccess(deps.database.db, userId)) ?? { role: null, suspended: false },
  );

/** After a user's role or suspension changed: every instance reads it again. */
export const accessChanged = (deps: Pick<Deps, 'invalidation'>, userId: string) =>
  deps.invalidation.publish('access', userId);

/** Reads the session cookie, the role and the suspension once per request. */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  const active = await findActiveSession(c.var.deps, c.req.raw.headers);
  c.set('user', active?.user ?? null);
  c.set('session', active?.session ?? null);
  c.set('role', active?.role ?? null);
  await next();
  // A renewed cookie cache goes back on whatever the handler answered, streams included.
  for (const cookie of active?.setCookies ?? []) {
    try {
      c.res.headers.append('set-cookie', cookie);
    } catch {
      // An immutable response (a proxied one): the cache is simply renewed on a later request.
    }
  }
});

/**
 * A personal access token (issue 20) opens test runs only (`requireUserOrToken`); sent anywhere
 * else it is told so, rather than asked to sign in.
 */
const signedOutError = (authorization: string | undefined) =>
  authorization !== undefined && /^\s*Bearer\s+chorus_pat_/i.test(authorization)
    ? new ApiError(401, 'access_tokens:wrong_scope')
    : new ApiError(401, 'auth:required');

export const requireUser = createMiddleware<AuthedEnv>(async (c, next) => {
  if (!c.var.user) throw signedOutError(c.req.header('authorization'));
  await next();
});

/**
 * Every admin route starts here; the web's guards only hide UI (ARCHITECTURE §3). The role is
 * the one `loadSession` read with the session.
 */
export const requireRole = (needed: 'admin' | 'super_admin') =>
  createMiddleware<AuthedEnv>(async (c, next) => {
    if (!c.var.user) throw signedOutError(c.req.header('authorization'));
    const allowed = needed === 'admin' ? isAdminRole(c.var.role) : c.var.role === 'super_admin';
    if (!allowed) {
      throw new ApiError(403, 'auth:forbidden');
    }
    await next();
  });
