import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MessageSearchResult } from '@chorus/shared/api/search';
import { messageSearch, searchWords } from '@chorus/shared/message-search';
import { api } from '@/lib/api-client';

export const messageSearchQueryKey = ['messages', 'search'] as const;

export const searchMessages = (query: string, signal?: AbortSignal) => {
  const params = new URLSearchParams({ q: query, limit: String(messageSearch.defaultLimit) });
  return api.get<MessageSearchResult>(`/rest/v1/messages/search?${params.toString()}`, signal);
};

/**
 * Asks for the words of `text` only, so "Lisbon," and "lisbon" share one request and one cached
 * answer. A new query cancels the one in flight (its `signal`).
 */
export const messageSearchQueryOptions = (text: string) => {
  const query = searchWords(text).join(' ');
  return queryOptions({
    queryKey: [...messageSearchQueryKey, query],
    queryFn: ({ signal }) => searchMessages(query, signal),
    enabled: query !== '',
    // Someone typing sees the error at once and may retry; a backoff would only look stuck.
    retry: false,
    staleTime: 30_000,
  });
};

/** Keeps the previous results on screen while the next ones load. */
export const useMessageSearch = (text: string) =>
  useQuery({ ...messageSearchQueryOptions(text), placeholderData: keepPreviousData });
