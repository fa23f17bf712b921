import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Message } from '@chorus/shared/api/conversations';
import { messagePageSize } from '@chorus/shared/limits';
import { api } from '@/lib/api-client';

export const messagesQueryKey = (conversationId: string) =>
  ['conversations', 'messages', conversationId] as const;

export const getMessagesPage = (conversationId: string, offset: number, signal?: AbortSignal) =>
  api.get<Message[]>(
    `/rest/v1/conversations/${encodeURIComponent(conversationId)}/messages?limit=${messagePageSize}&offset=${offset}`,
    signal,
  );

/**
 * Pages requested together once the first page comes back full — six, a browser's connection
 * limit per host — so a 2,000-message chat loads in three round trips instead of ten, and a
 * short chat still costs one request.
 */
const pagesPerBatch = 6;

/** The whole conversation in write order, paging through the server's 200-message pages. */
export const getAllMessages = async (
  conversationId: string,
  signal?: AbortSignal,
): Promise<Message[]> => {
  const all: Message[] = [];
  for (let offset = 0; ;) {
    const batch = offset === 0 ? 1 : pagesPerBatch;
    const offsets = Array.from({ length: batch }, (_, index) => offset + index * messagePageSize);
    offset += batch * messagePageSize;
    const pages = await Promise.all(
      offsets.map((pageOffset) => getMessagesPage(conversationId, pageOffset, signal)),
    );
    for (const page of pages) {
      all.push(...page);
      if (page.length < messagePageSize) return all;
    }
  }
};

export const messagesQueryOptions = (conversationId: string) =>
  queryOptions({
    queryKey: messagesQueryKey(conversationId),
    queryFn: ({ signal }) => getAllMessages(conversationId, signal),
    // The chat keeps the cache in step with what it streams; a refetch would only repeat it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const useMessages = (conversationId: string | undefined) =>
  useQuery({ ...messagesQueryOptions(conversationId ?? ''), enabled: Boolean(conversationId) });
