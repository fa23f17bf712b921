import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SharedConversation } from '@chorus/shared/api/conversation-sharing';
import { api } from '@/lib/api-client';

/** Public: the link's token is the only key, no session needed. */
export const getSharedConversation = (token: string, signal?: AbortSignal) =>
  api.get<SharedConversation>(`/rest/v1/shared/${encodeURIComponent(token)}`, signal);

export const sharedConversationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['shared-conversation', token],
    queryFn: ({ signal }) => getSharedConversation(token, signal),
    // A snapshot: it never changes, only stops working when revoked.
    refetchOnWindowFocus: false,
  });

export const useSharedConversation = (token: string) =>
  useQuery(sharedConversationQueryOptions(token));
