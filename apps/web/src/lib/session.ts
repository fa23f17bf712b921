import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { sessionTimings } from '@chorus/shared/limits';
import { storageKeys } from '@chorus/shared/storage-keys';
import { authClient, type AuthSession, type AuthUser } from './auth-client';
import { isClientError } from './api-error';
import { storage } from './storage';

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

export const readSessionSnapshot = (now = Date.now()): SessionSnapshot | null => {
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

export const fetchSession = async (): Promise<AuthSession | null> => {
  const { data, error } = await authClient.getSession({
    signal: AbortSignal.timeout(sessionTimings.fetchTimeoutMs),
  });
  if (error) {
    if (error.status === 401) {
      writeSessionSnapshot(null);
      return null;
    }
    throw error;
  }
  const session = data?.session && data.user ? data : null;
  writeSessionSnapshot(session);
  return session;
};

export const sessionQueryOptions = () => {
  const snapshot = readSessionSnapshot();
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: fetchSession,
    staleTime: sessionTimings.authCacheMs,
    // A slow or failing auth server must not hold the whole app behind a spinner for long.
    retry: (failureCount: number, error: unknown) => !isClientError(error) && failureCount < 1,
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
export const refreshSession = (queryClient: QueryClient) =>
  queryClient.fetchQuery({ queryKey: sessionQueryKey, queryFn: fetchSession, staleTime: 0 });

/** Forgets everything cached for the previous user. */
export const clearSession = (queryClient: QueryClient) => {
  writeSessionSnapshot(null);
  queryClient.clear();
  queryClient.setQueryData(sessionQueryKey, null);
};
