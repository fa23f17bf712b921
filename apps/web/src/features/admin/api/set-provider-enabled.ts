import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderEnabled } from '@chorus/shared/api/admin-keys';
import { api } from '@/lib/api-client';
import { adminApiKeysQueryKey } from './get-admin-api-keys';

export const setProviderEnabled = ({ provider, enabled }: ProviderEnabled) =>
  api.patch<ProviderEnabled>(`/rest/v1/admin/providers/${provider}`, { enabled });

export const useSetProviderEnabled = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProviderEnabled,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminApiKeysQueryKey }),
  });
};
