import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  type QueryClient,
} from '@tanstack/react-query';
import type { Conversation, ConversationPage } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';

export const conversationPageSize = 50;

export const conversationsQueryKey = ['conversations', 'list'] as const;

export const getConversations = (
  { search, cursor }: { search: string; cursor: string | null },
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: String(conversationPageSize) });
  if (cursor) params.set('cursor', cursor);
  if (search) params.set('search', search);
  return api.get<ConversationPage>(`/rest/v1/conversations?${params.toString()}`, signal);
};

export const conversationsQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: [...conversationsQueryKey, { search }],
    queryFn: ({ pageParam, signal }) => getConversations({ search, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** Keeps showing the previous list while a new search loads, instead of a spinner flash. */
export const useConversations = (search: string) =>
  useInfiniteQuery({ ...conversationsQueryOptions(search), placeholderData: keepPreviousData });

/**
 * A conversation's title as the loaded list knows it; never fetches by itself (the sidebar
 * loads the list), and follows renames.
 */
export const useConversationTitle = (id: string | undefined): string | undefined => {
  const { data } = useInfiniteQuery({
    ...conversationsQueryOptions(''),
    enabled: false,
    select: (list) =>
      list.pages.flatMap((page) => page.conversations).find((row) => row.id === id)?.title,
  });
  return id ? data : undefined;
};

type Pages = { pages: ConversationPage[]; pageParams: unknown[] };
export type ConversationListsSnapshot = ReturnType<QueryClient['getQueriesData']>;

/** Every loaded conversation list (one per search), for rolling back an optimistic change. */
export const snapshotConversationLists = (queryClient: QueryClient): ConversationListsSnapshot =>
  queryClient.getQueriesData({ queryKey: conversationsQueryKey });

export const restoreConversationLists = (
  queryClient: QueryClient,
  snapshot: ConversationListsSnapshot,
) => {
  for (const [key, data] of snapshot) queryClient.setQueryData(key, data);
};

/** Rewrites the rows of every loaded page of every conversation list. */
export const mapConversationLists = (
  queryClient: QueryClient,
  map: (conversations: Conversation[]) => Conversation[],
) => {
  queryClient.setQueriesData<Pages>({ queryKey: conversationsQueryKey }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({ ...page, conversations: map(page.conversations) })),
        }
      : data,
  );
};

/** Puts a new conversation at the top of the unfiltered list (newest first). */
export const prependConversation = (queryClient: QueryClient, conversation: Conversation) => {
  queryClient.setQueryData<Pages>(conversationsQueryOptions('').queryKey, (data) => {
    if (!data) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return {
      ...data,
      pages: [{ ...first, conversations: [conversation, ...first.conversations] }, ...rest],
    };
  });
};
