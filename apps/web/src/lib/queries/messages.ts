import {
  infiniteQueryOptions,
  useInfiniteQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Message, MessagePage } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';

export const messagesQueryKey = (conversationId: string) =>
  ['conversations', 'messages', conversationId] as const;

/**
 * A conversation's history as loaded so far: `pages[0]` is the newest page, each later page the
 * one written before it. A refetch starts again from the newest and walks back as far as before.
 */
export type MessageHistory = InfiniteData<MessagePage, string | null>;

export const getMessagePage = (
  conversationId: string,
  before: string | null,
  signal?: AbortSignal,
) =>
  api.get<MessagePage>(
    `/rest/v1/conversations/${encodeURIComponent(conversationId)}/messages/latest${
      before ? `?before=${encodeURIComponent(before)}` : ''
    }`,
    signal,
  );

/** Opening a chat fetches its newest page only; older pages come as the reader scrolls up. */
export const messagesQueryOptions = (conversationId: string) =>
  infiniteQueryOptions({
    queryKey: messagesQueryKey(conversationId),
    queryFn: ({ pageParam, signal }) => getMessagePage(conversationId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.older_cursor,
    // The chat keeps the cache in step with what it streams; a refetch would only repeat it.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const useMessages = (conversationId: string | undefined) =>
  useInfiniteQuery({
    ...messagesQueryOptions(conversationId ?? ''),
    enabled: Boolean(conversationId),
  });

/** Every loaded message, oldest first. */
export const historyMessages = (history: { pages: MessagePage[] } | undefined): Message[] =>
  history ? history.pages.toReversed().flatMap((page) => page.messages) : [];

/** A history holding exactly `messages` (a new conversation, or one just created). */
export const historyOf = (messages: Message[]): MessageHistory => ({
  pages: [{ messages, older_cursor: null }],
  pageParams: [null],
});

/**
 * Adds the rows of a finished exchange to the newest page. A row the history holds already is
 * kept where it is, except a reply, which takes the exchange's copy (its final text and status).
 */
export const appendToHistory = (
  queryClient: QueryClient,
  conversationId: string,
  exchange: Message[],
): void => {
  queryClient.setQueryData<MessageHistory>(messagesQueryKey(conversationId), (history) => {
    if (!history) return historyOf(exchange);
    const replyIds = new Set(exchange.filter((m) => m.role === 'assistant').map((m) => m.id));
    const known = new Set(historyMessages(history).map((m) => m.id));
    const added = exchange.filter((m) => !known.has(m.id) || replyIds.has(m.id));
    const [newest, ...older] = history.pages;
    const kept = (newest?.messages ?? []).filter((m) => !replyIds.has(m.id));
    return {
      pages: [
        { messages: [...kept, ...added], older_cursor: newest?.older_cursor ?? null },
        ...older,
      ],
      pageParams: history.pageParams,
    };
  });
};

/**
 * Drops what the server replaces on a regenerate (everything after `messageId`) or an edit (the
 * message itself and everything after it). The page that holds the message becomes the newest.
 */
export const truncateHistory = (
  queryClient: QueryClient,
  conversationId: string,
  messageId: string,
  inclusive: boolean,
): void => {
  queryClient.setQueryData<MessageHistory>(messagesQueryKey(conversationId), (history) => {
    if (!history) return history;
    const at = history.pages.findIndex((page) => page.messages.some((m) => m.id === messageId));
    if (at === -1) return history;
    const page = history.pages[at]!;
    const index = page.messages.findIndex((m) => m.id === messageId);
    const cut = { ...page, messages: page.messages.slice(0, inclusive ? index : index + 1) };
    return {
      pages: [cut, ...history.pages.slice(at + 1)],
      pageParams: [null, ...history.pageParams.slice(at + 1)],
    };
  });
};

/** `POST /rest/v1/messages/{id}/select`: makes a version of an answer the current one. */
export const selectMessageVersion = (messageId: string) =>
  api.post<Message>(`/rest/v1/messages/${encodeURIComponent(messageId)}/select`, {});

/** Puts `message` where any of its versions is shown in the loaded history. */
export const showVersionInHistory = (
  queryClient: QueryClient,
  conversationId: string,
  message: Message,
): void => {
  const versions = new Set(message.version?.ids ?? [message.id]);
  queryClient.setQueryData<MessageHistory>(messagesQueryKey(conversationId), (history) =>
    history
      ? {
          ...history,
          pages: history.pages.map((page) =>
            page.messages.some((m) => versions.has(m.id))
              ? { ...page, messages: page.messages.map((m) => (versions.has(m.id) ? message : m)) }
              : page,
          ),
        }
      : history,
  );
};
