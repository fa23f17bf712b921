import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeySummary } from '@chorus/shared/api/keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';
import { apiKeysQueryKey } from './get-api-keys';

export type SaveApiKeyInput = { provider: ProviderId; apiKey: string; model?: string | null };

export const saveApiKey = ({ provider, apiKey, model }: SaveApiKeyInput) =>
  api.put<ApiKeySummary>(`/rest/v1/api-keys/${provider}`, {
    api_key: apiKey,
    model: model ?? null,
  });

export const useSaveApiKey = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
};
