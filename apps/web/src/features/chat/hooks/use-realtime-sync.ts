import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { realtime } from '@/lib/realtime';
import { conversationsQueryKey } from '@/lib/queries/conversations';
import { messagesQueryKey } from '@/lib/queries/messages';
import type { LiveChat } from '@/lib/chat/live-chat';

/** Coalesces a burst of changes (a reply's insert and update) into one refetch per list. */
const REFRESH_DELAY_MS = 150;

/**
 * Keeps this tab in step with the user's other tabs: a change announced on the realtime feed
 * refetches the conversation list or that conversation's messages. A conversation streaming in
 * this very tab is left alone; its own stream already holds the newest state.
 */
export const useRealtimeSync = (liveChats: Map<string, LiveChat>) => {
  const queryClient = useQueryClient();
  useEffect(() => {
    const pending = new Map<string, ReturnType<typeof setTimeout>>();
    const refresh = (key: readonly unknown[]) => {
      const id = JSON.stringify(key);
      clearTimeout(pending.get(id));
      pending.set(
        id,
        setTimeout(() => {
          pending.delete(id);
          void queryClient.invalidateQueries({ queryKey: key });
        }, REFRESH_DELAY_MS),
      );
    };
    const unsubscribe = realtime.subscribe((change) => {
      refresh(conversationsQueryKey);
      if (change.table !== 'messages') return;
      const live = liveChats.get(change.conversation_id);
      if (live && (live.status === 'submitted' || live.status === 'streaming')) return;
      refresh(messagesQueryKey(change.conversation_id));
    });
    return () => {
      unsubscribe();
      for (const t of pending.values()) clearTimeout(t);
    };
  }, [queryClient, liveChats]);
};
