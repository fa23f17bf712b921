import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminApiKeySummary, AdminKeyKind } from '@chorus/shared/api/admin-keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';
import { adminApiKeysQueryKey } from './get-admin-api-keys';

export type SaveAdminApiKeyInput = { kind: AdminKeyKind; provider: ProviderId; apiKey: string };

export const saveAdminApiKey = ({ kind, provider, apiKey }: SaveAdminApiKeyInput) =>
  api.put<AdminApiKeySummary>(`/rest/v1/admin/api-keys/${kind}/${provider}`, { api_key: apiKey });

export const useSaveAdminApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAdminApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminApiKeysQueryKey }),
  });
};
