import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { authRefresh, sessionTimings } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { privateStoragePrefixes, storageKeys } from '@chorus/shared/storage-keys';
import { authClient, type AuthSession, type AuthUser } from './auth-client';
import { ApiError } from './api-error';
import { requests, resilienceEnabled } from './resilience/runtime';
import { backoffMs, sleep } from './resilience/sleep';
import { storage } from './storage';
import { unsentMessages } from './chat/unsent';

/**
 * The non-secret session snapshot kept in local storage for a fast start and for other
 * tabs (spec §3 "Auth session: user, id, expires_at"). Never the token.
 */
export type SessionSnapshot = {
  user: Pick<AuthUser, 'id' | 'email' | 'name'>;
  id: string;
  /** Unix seconds. */
  expires_at: number;
};

export const sessionQueryKey = ['session'] as const;

const toSnapshot = (session: AuthSession): SessionSnapshot => ({
  user: { id: session.user.id, email: session.user.email, name: session.user.name },
  id: session.session.id,
  expires_at: Math.floor(new Date(session.session.expiresAt).getTime() / 1000),
});

const fromSnapshot = (snapshot: SessionSnapshot): AuthSession => ({
  session: { id: snapshot.id, expiresAt: new Date(snapshot.expires_at * 1000).toISOString() },
  user: snapshot.user,
});

export const writeSessionSnapshot = (session: AuthSession | null): void => {
  if (!session) {
    storage.remove(storageKeys.session);
    return;
  }
  const next = JSON.stringify(toSnapshot(session));
  // Rewriting an identical value would still wake other tabs' storage listeners.
  if (storage.get(storageKeys.session) !== next) storage.set(storageKeys.session, next);
};

const readSessionSnapshot = (now = Date.now()): SessionSnapshot | null => {
  const raw = storage.get(storageKeys.session);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<SessionSnapshot>;
    if (
      typeof parsed.id !== 'string' ||
      typeof parsed.expires_at !== 'number' ||
      typeof parsed.user?.id !== 'string'
    ) {
      return null;
    }
    if (parsed.expires_at * 1000 <= now) return null;
    return parsed as SessionSnapshot;
  } catch {
    return null;
  }
};

const sessionCacheKey = 'GET /auth/v1/get-session';

const loadSession = async (): Promise<AuthSession | null> => {
  const { data, error } = await authClient.getSession({
    signal: AbortSignal.timeout(sessionTimings.fetchTimeoutMs),
  });
  if (error) {
    if (error.status === 401) {
      writeSessionSnapshot(null);
      return null;
    }
    if (error.status === 408) throw new ApiError(408, messages.session.fetchTimeout);
    throw error;
  }
  const session = data?.session && data.user ? data : null;
  writeSessionSnapshot(session);
  return session;
};

/**
 * Asks the server for the session: times out after 4 s ('Session fetch timeout'), and once
 * the app runs, one answer serves every caller for 5 s (spec §9 session cache).
 */
export const fetchSession = (): Promise<AuthSession | null> =>
  resilienceEnabled()
    ? requests.run(sessionCacheKey, sessionTimings.cacheMs, loadSession)
    : loadSession();

/**
 * Spec §9 wait-for-auth: 3 attempts, waiting 100 ms doubling (to at most 2 s) between them;
 * when none answers, 'Auth system unavailable'.
 */
export const waitForAuth = async (
  load: () => Promise<AuthSession | null> = fetchSession,
): Promise<AuthSession | null> => {
  const { attempts, backoffBaseMs, backoffMaxMs } = authRefresh.waitForAuth;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt + 1 >= attempts) {
        throw new ApiError(503, messages.session.unavailable, {
          code: error instanceof ApiError ? error.code : undefined,
        });
      }
      await sleep(backoffMs(attempt, backoffBaseMs, backoffMaxMs));
    }
  }
};

export const sessionQueryOptions = () => {
  const snapshot = readSessionSnapshot();
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: () => waitForAuth(),
    staleTime: sessionTimings.authCacheMs,
    // waitForAuth makes its own (short) attempts: a failing auth server must not hold the
    // whole app behind a spinner for long.
    retry: false,
    // A snapshot renders the signed-in shell at once; the server's answer replaces it.
    ...(snapshot ? { initialData: fromSnapshot(snapshot), initialDataUpdatedAt: 0 } : {}),
  });
};

export type SessionState =
  | { status: 'loading'; user: null; session: null }
  | { status: 'signed-out'; user: null; session: null }
  | { status: 'signed-in'; user: AuthUser; session: AuthSession['session'] };

export const useSession = (): SessionState => {
  const query = useQuery(sessionQueryOptions());
  if (query.isPending) return { status: 'loading', user: null, session: null };
  const data = query.data;
  if (!data) return { status: 'signed-out', user: null, session: null };
  return { status: 'signed-in', user: data.user, session: data.session };
};

/** Reads the session from the server again, e.g. right after signing in. */
export const refreshSession = (queryClient: QueryClient) => {
  requests.invalidate();
  return queryClient.fetchQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: 0 });
};

/**
 * Asks the server again whether this tab is signed in (another tab signed in or out, a call was
 * refused with 401, the server ended the session). Skips the 5 s session cache: its answer is
 * exactly what is in doubt.
 */
export const recheckSession = (queryClient: QueryClient) => {
  requests.invalidate();
  return queryClient.invalidateQueries({ queryKey: sessionQueryKey });
};

/** Forgets everything cached for the previous user. */
export const clearSession = (queryClient: QueryClient) => {
  writeSessionSnapshot(null);
  // Drafts and unsent messages are the person's words: they do not outlive the session here.
  storage.removeByPrefix(privateStoragePrefixes);
  unsentMessages.reset();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  // Set on the session query the guards already watch: a query removed and made anew would
  // leave them holding the old one, still signed in (another tab's sign-out went unseen).
  queryClient.setQueryData(sessionQueryKey, null);
};
