import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiKeySummary } from '@chorus/shared/api/keys';
import { api } from '@/lib/api-client';

export const apiKeysQueryKey = ['api-keys'] as const;

export const getApiKeys = (signal?: AbortSignal) =>
  api.get<ApiKeySummary[]>('/rest/v1/api-keys', signal);

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: apiKeysQueryKey, queryFn: ({ signal }) => getApiKeys(signal) });

export const useApiKeys = () => useQuery(apiKeysQueryOptions());
