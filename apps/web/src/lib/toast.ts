import { useEffect, useSyncExternalStore } from 'react';
import type { toast as sonnerToast } from 'sonner';

// sonner (about 9 KB of gzip) is not part of the first paint. Toasts answer what a person did, so
// the toaster mounts at their first press, key, change to a field or drop, or when a toast is
// shown through `toast` below before that. sonner shows a toast made just before it mounted.

let requested = false;
const listeners = new Set<() => void>();

const requestToaster = () => {
  if (requested) return;
  requested = true;
  for (const listener of listeners) listener();
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

// `input` and `change` too: a test or a password manager fills a field without a key.
const firstActions = ['pointerdown', 'keydown', 'click', 'input', 'change', 'drop'] as const;

/** Whether the app's toaster should be mounted; asks for it at a person's first action. */
export const useToasterRequested = (): boolean => {
  const shown = useSyncExternalStore(subscribe, () => requested);
  useEffect(() => {
    if (shown) return;
    for (const type of firstActions) window.addEventListener(type, requestToaster, true);
    return () => {
      for (const type of firstActions) window.removeEventListener(type, requestToaster, true);
    };
  }, [shown]);
  return shown;
};

type Sonner = typeof sonnerToast;
type Show = (
  message: Parameters<Sonner['success']>[0],
  data?: Parameters<Sonner['success']>[1],
) => void;

let sonner: Promise<Sonner> | undefined;

const show =
  (level: 'success' | 'error' | 'warning' | 'info'): Show =>
  (message, data) => {
    requestToaster();
    sonner ??= import('sonner').then((module) => module.toast);
    sonner
      .then((t) => t[level](message, data))
      .catch((error: unknown) => {
        console.warn('Could not show a toast', error);
      });
  };

/**
 * sonner's `toast`, loaded with the first toast shown: a page that toasts only after a press keeps
 * sonner out of its first paint. The pages on a budget (bench/bundle-budgets.ts) toast through it.
 */
export const toast = {
  success: show('success'),
  error: show('error'),
  warning: show('warning'),
  info: show('info'),
};
