import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { Conversation } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';
import { mapConversationLists } from '@/lib/queries/conversations';
import {
  messagesQueryKey,
  messagesQueryOptions,
  type MessageHistory,
} from '@/lib/queries/messages';

// A new chat (/chat) has no conversation yet: its system prompt waits here and goes with the
// request that creates the conversation.
let pending = '';
const listeners = new Set<() => void>();

export const pendingSystemPrompt = {
  get: () => pending,
  set(next: string) {
    pending = next;
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};

export const saveSystemPrompt = (conversationId: string, systemPrompt: string) =>
  api.patch<Conversation>(`/rest/v1/conversations/${encodeURIComponent(conversationId)}`, {
    system_prompt: systemPrompt,
  });

/**
 * A conversation's system prompt (the newest page of its history carries it) and how to change
 * it; for a new chat, the prompt it will be created with.
 */
export const useSystemPrompt = (conversationId: string | undefined) => {
  const queryClient = useQueryClient();
  const waiting = useSyncExternalStore(pendingSystemPrompt.subscribe, pendingSystemPrompt.get);
  // Reads the cached history only; the chat itself loads it.
  const { data: stored } = useInfiniteQuery({
    ...messagesQueryOptions(conversationId ?? ''),
    enabled: false,
    select: (history) => history.pages[0]?.system_prompt,
  });
  const save = useCallback(
    async (next: string) => {
      if (!conversationId) {
        pendingSystemPrompt.set(next);
        return;
      }
      const conversation = await saveSystemPrompt(conversationId, next);
      queryClient.setQueryData<MessageHistory>(messagesQueryKey(conversationId), (history) =>
        history
          ? {
              ...history,
              pages: history.pages.map((page) => ({ ...page, system_prompt: next })),
            }
          : history,
      );
      mapConversationLists(queryClient, (rows) =>
        rows.map((row) => (row.id === conversation.id ? { ...row, ...conversation } : row)),
      );
    },
    [conversationId, queryClient],
  );
  return { value: conversationId ? (stored ?? '') : waiting, save };
};
