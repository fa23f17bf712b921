import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminKeyKind } from '@chorus/shared/api/admin-keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';
import { adminApiKeysQueryKey } from './get-admin-api-keys';
import { invalidateAuditLog } from './get-audit-logs';

export const deleteAdminApiKey = ({
  kind,
  provider,
}: {
  kind: AdminKeyKind;
  provider: ProviderId;
}) => api.delete<void>(`/rest/v1/admin/api-keys/${kind}/${provider}`);

export const useDeleteAdminApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAdminApiKey,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminApiKeysQueryKey });
    },
  });
};
