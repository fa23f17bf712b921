import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Trends } from '@chorus/shared/api/trends';
import { api } from '@/lib/api-client';

export const trendsQueryOptions = queryOptions({
  queryKey: ['trends'],
  queryFn: ({ signal }) => api.get<Trends>('/rest/v1/trends', signal),
  staleTime: 60_000,
});

export const useTrends = () => useQuery(trendsQueryOptions);
