import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminApiKeySummary, AdminKeyKind } from '@chorus/shared/api/admin-keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';
import { adminApiKeysQueryKey } from './get-admin-api-keys';
import { invalidateAuditLog } from './get-audit-logs';

export type SaveAdminApiKeyInput = { kind: AdminKeyKind; provider: ProviderId; apiKey: string };

export const saveAdminApiKey = ({ kind, provider, apiKey }: SaveAdminApiKeyInput) =>
  api.put<AdminApiKeySummary>(`/rest/v1/admin/api-keys/${kind}/${provider}`, { api_key: apiKey });

export const useSaveAdminApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdminApiKey,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminApiKeysQueryKey });
    },
  });
};
