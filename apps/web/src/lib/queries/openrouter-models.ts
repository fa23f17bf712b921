import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OpenRouterModel } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';

export const getOpenRouterModels = (signal?: AbortSignal) =>
  api.get<{ models: OpenRouterModel[] }>('/functions/v1/openrouter-models', signal);

export const openRouterModelsQueryOptions = () =>
  queryOptions({
    queryKey: ['openrouter-models'],
    queryFn: async ({ signal }) => (await getOpenRouterModels(signal)).models,
    staleTime: 10 * 60_000,
  });

export const useOpenRouterModels = (enabled: boolean) =>
  useQuery({ ...openRouterModelsQueryOptions(), enabled });
