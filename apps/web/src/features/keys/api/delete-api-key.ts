import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';
import { apiKeysQueryKey } from './get-api-keys';

export const deleteApiKey = (provider: ProviderId) =>
  api.delete<void>(`/rest/v1/api-keys/${provider}`);

export const useDeleteApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
};
