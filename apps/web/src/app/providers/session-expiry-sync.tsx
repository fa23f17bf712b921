import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isApiError } from '@/lib/api-error';
import { recheckSession, sessionQueryKey, useSession } from '@/lib/session';

const endsSession = (error: unknown) => isApiError(error) && error.status === 401;

/**
 * When the server answers a call with 401 — the session ended elsewhere: signed out in another
 * browser, expired, or the account was suspended — this tab asks for its session again, so the
 * route guards send the person to sign in instead of leaving a page that can no longer load.
 */
export const SessionExpirySync = () => {
  const queryClient = useQueryClient();
  const signedIn = useSession().status === 'signed-in';

  // While signed in, one socket per tab hears the server end the session (an admin suspending
  // the account), so an idle page signs out within a second instead of at its next request.
  // Its client loads only then: a guest's first paint does without it.
  useEffect(() => {
    if (!signedIn) return;
    let stop: (() => void) | undefined;
    let stopped = false;
    void import('@/lib/realtime').then(({ realtime }) => {
      if (stopped) return;
      const unsubscribe = realtime.subscribe(() => undefined);
      const offEnded = realtime.onSessionEnded(() => void recheckSession(queryClient));
      stop = () => {
        offEnded();
        unsubscribe();
      };
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [signedIn, queryClient]);

  useEffect(() => {
    let checking = false;
    const recheck = () => {
      if (checking) return;
      checking = true;
      void recheckSession(queryClient).finally(() => (checking = false));
    };
    const offQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (event.query.queryKey[0] === sessionQueryKey[0]) return;
      if (endsSession(event.action.error)) recheck();
    });
    const offMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (endsSession(event.action.error)) recheck();
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [queryClient]);
  return null;
};
