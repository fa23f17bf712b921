import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareCreated, ShareStatus } from '@chorus/shared/api/conversation-sharing';
import { api } from '@/lib/api-client';

const sharePath = (conversationId: string) =>
  `/rest/v1/conversations/${encodeURIComponent(conversationId)}/share`;

export const shareStatusQueryKey = (conversationId: string) =>
  ['conversations', 'share', conversationId] as const;

export const getShareStatus = (conversationId: string, signal?: AbortSignal) =>
  api.get<ShareStatus>(sharePath(conversationId), signal);

export const shareStatusQueryOptions = (conversationId: string) =>
  queryOptions({
    queryKey: shareStatusQueryKey(conversationId),
    queryFn: ({ signal }) => getShareStatus(conversationId, signal),
    // Another tab may have shared or revoked it: asked again each time the dialog opens.
    staleTime: 0,
  });

/** Whether the conversation has an active link, since when, and how many messages it shows. */
export const useShareStatus = (conversationId: string) =>
  useQuery(shareStatusQueryOptions(conversationId));

export const createShareLink = (conversationId: string) =>
  api.post<ShareCreated>(sharePath(conversationId));

export const revokeShareLink = (conversationId: string) =>
  api.delete<void>(sharePath(conversationId));

/** A new link (replacing the active one); its token is in the answer, and only there. */
export const useCreateShareLink = (conversationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createShareLink(conversationId),
    onSuccess: (created) =>
      queryClient.setQueryData<ShareStatus>(shareStatusQueryKey(conversationId), {
        active: true,
        created_at: created.created_at,
        message_count: created.message_count,
      }),
  });
};

export const useRevokeShareLink = (conversationId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => revokeShareLink(conversationId),
    onSuccess: () =>
      queryClient.setQueryData<ShareStatus>(shareStatusQueryKey(conversationId), {
        active: false,
      }),
  });
};
