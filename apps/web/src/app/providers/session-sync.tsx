import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { storageKeys } from '@chorus/shared/storage-keys';
import { recheckSession, sessionQueryKey } from '@/lib/session';

/** When another tab signs in or out, this tab asks the server for its session again. */
export const SessionSync = () => {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== storageKeys.session && event.key !== null) return;
      if (!event.newValue) {
        queryClient.removeQueries({
          predicate: (query) => query.queryKey[0] !== sessionQueryKey[0],
        });
      }
      void recheckSession(queryClient);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);
  return null;
};
