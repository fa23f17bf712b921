import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateCustomAi,
  CustomAi,
  ShareCustomAi,
  UpdateCustomAi,
} from '@chorus/shared/api/custom-ais';
import { api } from '@/lib/api-client';
import { conversationsQueryKey } from '@/lib/queries/conversations';
import { customAiPath, customAisQueryKey } from '@/lib/queries/custom-ais';

export const useCreateCustomAi = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateCustomAi) => api.post<CustomAi>('/rest/v1/custom-ais', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customAisQueryKey }),
  });
};

export const useUpdateCustomAi = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: UpdateCustomAi }) =>
      api.patch<CustomAi>(customAiPath(id), patch),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customAisQueryKey }),
  });
};

/** Chats that talked to it go back to a plain model: the conversation lists say so again. */
export const useDeleteCustomAi = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(customAiPath(id)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: customAisQueryKey }),
        queryClient.invalidateQueries({ queryKey: conversationsQueryKey }),
      ]),
  });
};

const sharePath = (id: string) => `${customAiPath(id)}/share`;

/** Asks the curators to publish it in /discover: it waits for review. */
export const useShareCustomAi = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, share }: { id: string; share: ShareCustomAi }) =>
      api.post<CustomAi>(sharePath(id), share),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customAisQueryKey }),
  });
};

/** Private again: out of /discover, or out of the review queue. */
export const useUnshareCustomAi = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<CustomAi>(sharePath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customAisQueryKey }),
  });
};
