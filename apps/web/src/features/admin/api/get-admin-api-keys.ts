import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminApiKeysResponse } from '@chorus/shared/api/admin-keys';
import { api } from '@/lib/api-client';

export const adminApiKeysQueryKey = ['admin', 'api-keys'] as const;

export const getAdminApiKeys = (signal?: AbortSignal) =>
  api.get<AdminApiKeysResponse>('/rest/v1/admin/api-keys', signal);

export const adminApiKeysQueryOptions = () =>
  queryOptions({
    queryKey: adminApiKeysQueryKey,
    queryFn: ({ signal }) => getAdminApiKeys(signal),
  });

export const useAdminApiKeys = () => useQuery(adminApiKeysQueryOptions());
