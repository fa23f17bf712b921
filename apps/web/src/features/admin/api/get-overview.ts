import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOverview } from '@chorus/shared/api/admin';
import { api } from '@/lib/api-client';

export const adminOverviewQueryKey = ['admin', 'overview'] as const;

export const getAdminOverview = (signal?: AbortSignal) =>
  api.get<AdminOverview>('/rest/v1/admin/overview', signal);

export const adminOverviewQueryOptions = () =>
  queryOptions({
    queryKey: adminOverviewQueryKey,
    queryFn: ({ signal }) => getAdminOverview(signal),
    staleTime: 30_000,
  });

export const useAdminOverview = () => useQuery(adminOverviewQueryOptions());
