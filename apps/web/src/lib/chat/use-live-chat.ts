import { useSyncExternalStore } from 'react';
import type * as LiveChatModuleNs from './live-chat';

export type LiveChatModule = typeof LiveChatModuleNs;

let loaded: LiveChatModule | null = null;
let loading: Promise<LiveChatModule> | null = null;
const listeners = new Set<() => void>();

/** Imports the streaming client once; every caller shares the same promise. */
export const loadLiveChatModule = (): Promise<LiveChatModule> => {
  loading ??= import('./live-chat').then((module) => {
    loaded = module;
    for (const listener of listeners) listener();
    return module;
  });
  return loading;
};

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The streaming client once loaded (null until then). Nothing streams before a send, so views ask
 * for it when someone is about to write (`prefetchLiveChat` on the composer's focus or hover),
 * not on their first paint.
 */
export const useLiveChatModule = (): LiveChatModule | null =>
  useSyncExternalStore(subscribe, () => loaded);

/** Starts loading the streaming client; a failure is retried by the send that needs it. */
export const prefetchLiveChat = (): void => {
  if (loaded) return;
  loadLiveChatModule().catch(() => {
    loading = null;
  });
};
