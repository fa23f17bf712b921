import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderEnabled } from '@chorus/shared/api/admin-keys';
import { api } from '@/lib/api-client';
import { enabledProvidersQueryKey, forgetEnabledProviders } from '@/lib/queries/enabled-providers';
import { adminApiKeysQueryKey } from './get-admin-api-keys';
import { invalidateAuditLog } from './get-audit-logs';

export const setProviderEnabled = ({ provider, enabled }: ProviderEnabled) =>
  api.patch<ProviderEnabled>(`/rest/v1/admin/providers/${provider}`, { enabled });

export const useSetProviderEnabled = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProviderEnabled,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      forgetEnabledProviders();
      void queryClient.invalidateQueries({ queryKey: enabledProvidersQueryKey });
      return queryClient.invalidateQueries({ queryKey: adminApiKeysQueryKey });
    },
  });
};
