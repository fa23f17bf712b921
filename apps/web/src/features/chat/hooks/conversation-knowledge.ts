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

// A new chat (/chat) has no conversation yet: the knowledge bases picked for it wait here, and
// are attached right after the conversation is created, before its first message goes.
let pending: string[] = [];
// What was last saved for a conversation the loaded list may not hold (an old one, far down).
const saved = new Map<string, string[]>();
const none: string[] = [];
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

export const pendingKnowledgeBases = {
  get: () => pending,
  set(next: string[]) {
    pending = next;
    notify();
  },
};

const remember = (conversationId: string, ids: string[] | undefined) => {
  if (ids) saved.set(conversationId, ids);
  else saved.delete(conversationId);
  notify();
};

export const saveConversationKnowledge = (conversationId: string, ids: string[]) =>
  api.patch<Conversation>(`/rest/v1/conversations/${encodeURIComponent(conversationId)}`, {
    knowledge_base_ids: ids,
  });

/** Puts the server's copy of a conversation into every loaded list. */
export const showConversation = (queryClient: QueryClient, conversation: Conversation) => {
  remember(conversation.id, conversation.knowledge_base_ids);
  mapConversationLists(queryClient, (rows) =>
    rows.map((row) => (row.id === conversation.id ? { ...row, ...conversation } : row)),
  );
};

/**
 * The knowledge bases a conversation's replies search and cite, and how to change them; for a
 * new chat, the ones it will be created with. A change shows at once and is undone if refused.
 */
export const useConversationKnowledge = (conversationId: string | undefined) => {
  const queryClient = useQueryClient();
  const listed = useListedConversation(conversationId);
  useSyncExternalStore(subscribe, () => version);
  // A conversation not in the loaded list: what this tab saved, else what its history says.
  const { data: stored } = useInfiniteQuery({
    ...messagesQueryOptions(conversationId ?? ''),
    enabled: false,
    select: (history) => history.pages[0]?.knowledge_base_ids,
  });
  const ids = conversationId
    ? (listed?.knowledge_base_ids ?? saved.get(conversationId) ?? stored ?? none)
    : pending;
  const save = useCallback(
    async (next: string[]) => {
      if (!conversationId) {
        pendingKnowledgeBases.set(next);
        return;
      }
      const snapshot = snapshotConversationLists(queryClient);
      const before = saved.get(conversationId);
      remember(conversationId, next);
      mapConversationLists(queryClient, (rows) =>
        rows.map((row) => (row.id === conversationId ? { ...row, knowledge_base_ids: next } : row)),
      );
      try {
        showConversation(queryClient, await saveConversationKnowledge(conversationId, next));
      } catch (error) {
        restoreConversationLists(queryClient, snapshot);
        remember(conversationId, before);
        throw error;
      }
    },
    [conversationId, queryClient],
  );
  return { ids, save };
};
