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
 * A conversation as the list knows it (its title, its pin), following renames and pins. Loads the
 * list's first page if nothing has (a phone, whose drawer is closed): the same query the sidebar
 * uses, answered from the page's early request when there is one.
 */
export const useListedConversation = (id: string | undefined): Conversation | undefined => {
  const { data } = useInfiniteQuery({
    ...conversationsQueryOptions(''),
    enabled: id !== undefined,
    select: (list) => list.pages.flatMap((page) => page.conversations).find((row) => row.id === id),
  });
  return id ? data : undefined;
};

type Pages = { pages: ConversationPage[]; pageParams: unknown[] };
export type ConversationListPages = Pages;
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

/**
 * The server's order: pinned first, most recently pinned first; then the others newest first
 * (ties by id, descending). ISO times of one format compare as text.
 */
export const compareConversations = (a: Conversation, b: Conversation): number => {
  const aPinned = a.pinned_at ?? null;
  const bPinned = b.pinned_at ?? null;
  if (aPinned !== null && bPinned !== null) {
    return bPinned.localeCompare(aPinned) || b.id.localeCompare(a.id);
  }
  if (aPinned !== null) return -1;
  if (bPinned !== null) return 1;
  return b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
};

/**
 * Puts `conversation` where the server will list it among the loaded rows (added when `insert`
 * and not loaded yet). When more pages are still to load and it falls after the last loaded row,
 * it is left out: the page that holds it brings it, and it is never listed twice.
 */
export const placeConversation = (
  data: ConversationListPages,
  conversation: Conversation,
  { insert }: { insert: boolean },
): ConversationListPages => {
  const rows = data.pages.flatMap((page) => page.conversations);
  const present = rows.some((row) => row.id === conversation.id);
  if (!present && !insert) return data;
  const others = rows.filter((row) => row.id !== conversation.id);
  let at = others.findIndex((row) => compareConversations(conversation, row) < 0);
  if (at === -1) at = others.length;
  const more = data.pages.at(-1)?.next_cursor != null;
  const placed =
    more && at === others.length
      ? others
      : [...others.slice(0, at), conversation, ...others.slice(at)];
  // Every page keeps its length but the last, which takes what is left.
  let start = 0;
  const pages = data.pages.map((page, index) => {
    const end = index === data.pages.length - 1 ? placed.length : start + page.conversations.length;
    const slice = placed.slice(start, end);
    start = end;
    return { ...page, conversations: slice };
  });
  return { ...data, pages };
};

/** Puts a new conversation in the unfiltered list: first after the pinned ones (newest first). */
export const prependConversation = (queryClient: QueryClient, conversation: Conversation) => {
  queryClient.setQueryData<Pages>(conversationsQueryOptions('').queryKey, (data) =>
    data ? placeConversation(data, conversation, { insert: true }) : data,
  );
};
