import { useInfiniteQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { Conversation } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';
import {
  mapConversationLists,
  restoreConversationLists,
  snapshotConversationLists,
  useListedConversation,
} from '@/lib/queries/conversations';
import { messagesQueryOptions } from '@/lib/queries/messages';

/** The conversation fields a chat sets with PATCH and keeps for a chat not yet created. */
type SettingField = 'knowledge_base_ids' | 'custom_ai_id';

/**
 * One setting of a conversation (its knowledge bases, its custom AI): the value a new chat will
 * be created with (`pending`), what a conversation holds (the loaded list, else what this tab
 * saved, else what its newest page of history says), and an optimistic change undone if refused.
 */
export const conversationSetting = <F extends SettingField>(
  field: F,
  empty: NonNullable<Conversation[F]> | null,
) => {
  type Value = Conversation[F];
  // A new chat (/chat) has no conversation yet: the value picked for it waits here, and is set on
  // the conversation right after it is created, before its first message goes.
  let pending = empty as Value;
  // What was last saved for a conversation the loaded list may not hold (an old one, far down).
  const saved = new Map<string, Value>();
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
  const remember = (conversationId: string, value: Value | undefined) => {
    if (value === undefined) saved.delete(conversationId);
    else saved.set(conversationId, value);
    notify();
  };
  const patch = (conversationId: string, value: Value) =>
    api.patch<Conversation>(`/rest/v1/conversations/${encodeURIComponent(conversationId)}`, {
      [field]: value,
    });

  const pendingValue = {
    get: () => pending,
    set(next: Value) {
      pending = next;
      notify();
    },
  };

  /** Puts the server's copy of a conversation into every loaded list. */
  const show = (queryClient: QueryClient, conversation: Conversation) => {
    remember(conversation.id, conversation[field]);
    mapConversationLists(queryClient, (rows) =>
      rows.map((row) => (row.id === conversation.id ? { ...row, ...conversation } : row)),
    );
  };

  const useSetting = (conversationId: string | undefined) => {
    const queryClient = useQueryClient();
    const listed = useListedConversation(conversationId);
    useSyncExternalStore(subscribe, () => version);
    const { data: stored } = useInfiniteQuery({
      ...messagesQueryOptions(conversationId ?? ''),
      enabled: false,
      select: (history) => history.pages[0]?.[field] as Value | undefined,
    });
    const value: Value = !conversationId
      ? pending
      : listed
        ? (listed[field] ?? (empty as Value))
        : saved.has(conversationId)
          ? saved.get(conversationId)!
          : (stored ?? (empty as Value));
    const save = useCallback(
      async (next: Value) => {
        if (!conversationId) {
          pendingValue.set(next);
          return;
        }
        const snapshot = snapshotConversationLists(queryClient);
        const before = saved.get(conversationId);
        remember(conversationId, next);
        mapConversationLists(queryClient, (rows) =>
          rows.map((row) => (row.id === conversationId ? { ...row, [field]: next } : row)),
        );
        try {
          show(queryClient, await patch(conversationId, next));
        } catch (error) {
          restoreConversationLists(queryClient, snapshot);
          remember(conversationId, before);
          throw error;
        }
      },
      [conversationId, queryClient],
    );
    return { value, save };
  };

  return { pending: pendingValue, show, useSetting };
};
