import { useInfiniteQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { Conversation } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';
import { messagesQueryOptions } from '@/lib/queries/messages';
import {
  mapConversationLists,
  restoreConversationLists,
  snapshotConversationLists,
  useListedConversation,
} from '@/lib/queries/conversations';

// A new chat (/chat) has no conversation yet: the custom AI picked for it waits here, and is set
// on the conversation right after it is created, before its first message goes.
let pending: string | null = null;
// What was last saved for a conversation the loaded list may not hold (an old one, far down).
const saved = new Map<string, string | null>();
let version = 0;
const listeners = new Set<() => void>();
const notify = () => {
  version += 1;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export const pendingCustomAi = {
  get: () => pending,
  set(next: string | null) {
    pending = next;
    notify();
  },
};

const remember = (conversationId: string, id: string | null | undefined) => {
  if (id === undefined) saved.delete(conversationId);
  else saved.set(conversationId, id);
  notify();
};

export const saveConversationCustomAi = (conversationId: string, customAiId: string | null) =>
  api.patch<Conversation>(`/rest/v1/conversations/${encodeURIComponent(conversationId)}`, {
    custom_ai_id: customAiId,
  });

/** Puts the server's copy of a conversation (and its custom AI) into every loaded list. */
export const showConversationCustomAi = (queryClient: QueryClient, conversation: Conversation) => {
  remember(conversation.id, conversation.custom_ai_id);
  mapConversationLists(queryClient, (rows) =>
    rows.map((row) => (row.id === conversation.id ? { ...row, ...conversation } : row)),
  );
};

/**
 * The custom AI a conversation talks to (null: a plain model), and how to change it; for a new
 * chat, the one it will be created with. A change shows at once and is undone if refused.
 */
export const useConversationCustomAi = (conversationId: string | undefined) => {
  const queryClient = useQueryClient();
  const listed = useListedConversation(conversationId);
  useSyncExternalStore(subscribe, () => version);
  // A conversation not in the loaded list: what this tab saved, else what its history says.
  const { data: stored } = useInfiniteQuery({
    ...messagesQueryOptions(conversationId ?? ''),
    enabled: false,
    select: (history) => history.pages[0]?.custom_ai_id,
  });
  let id = pending;
  if (conversationId) {
    id = listed
      ? (listed.custom_ai_id ?? null)
      : saved.has(conversationId)
        ? (saved.get(conversationId) ?? null)
        : (stored ?? null);
  }
  const save = useCallback(
    async (next: string | null) => {
      if (!conversationId) {
        pendingCustomAi.set(next);
        return;
      }
      const snapshot = snapshotConversationLists(queryClient);
      const before = saved.get(conversationId);
      remember(conversationId, next);
      mapConversationLists(queryClient, (rows) =>
        rows.map((row) => (row.id === conversationId ? { ...row, custom_ai_id: next } : row)),
      );
      try {
        showConversationCustomAi(queryClient, await saveConversationCustomAi(conversationId, next));
      } catch (error) {
        restoreConversationLists(queryClient, snapshot);
        remember(conversationId, before);
        throw error;
      }
    },
    [conversationId, queryClient],
  );
  return { id, save };
};
