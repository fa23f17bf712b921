import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useSession } from '@/lib/session';
import { useChatFeature } from '../components/chat-context';
import type * as LiveChatModuleNs from './live-chat';
import type { LiveChat } from './live-chat';

type LiveChatModule = typeof LiveChatModuleNs;

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

/** The streaming client once loaded (null until then); asks for it when the browser is idle. */
export const useLiveChatModule = (): LiveChatModule | null => {
  const module = useSyncExternalStore(subscribe, () => loaded);
  useEffect(() => {
    if (loaded) return;
    const load = () => void loadLiveChatModule().catch(() => {});
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(load, { timeout: 1500 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(load, 200);
    return () => clearTimeout(timer);
  }, []);
  return module;
};

/** Finds a conversation's stream in the chat feature's registry, creating it on first use. */
export const useLiveChats = () => {
  const { liveChats } = useChatFeature();
  const queryClient = useQueryClient();
  const userId = useSession().user?.id ?? '';
  return useCallback(
    (module: LiveChatModule, conversationId: string): LiveChat => {
      let chat = liveChats.get(conversationId);
      if (!chat) {
        chat = module.createLiveChat({ conversationId, userId, queryClient });
        liveChats.set(conversationId, chat);
      }
      return chat;
    },
    [liveChats, queryClient, userId],
  );
};
