import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OllamaModels } from '@chorus/shared/api/keys';
import { api } from '@/lib/api-client';

export const getOllamaModels = (signal?: AbortSignal) =>
  api.get<OllamaModels>('/functions/v1/ollama-models', signal);

/** The models installed on the workspace's Ollama server, or the catalogue's when it is away. */
export const ollamaModelsQueryOptions = () =>
  queryOptions({
    queryKey: ['ollama-models'],
    queryFn: ({ signal }) => getOllamaModels(signal),
    staleTime: 60_000,
  });

export const useOllamaModels = (enabled: boolean) =>
  useQuery({ ...ollamaModelsQueryOptions(), enabled });
