import { useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the browser believes it has a network (false is certain; true may be optimistic). */
export const isOnline = (): boolean => navigator.onLine !== false;

export const useOnline = (): boolean => useSyncExternalStore(subscribe, isOnline, () => true);
