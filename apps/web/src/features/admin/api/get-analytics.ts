import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsResponse } from '@chorus/shared/api/analytics';
import { api } from '@/lib/api-client';

export const getAnalytics = (days: number, signal?: AbortSignal) =>
  api.get<AnalyticsResponse>(`/rest/v1/admin/analytics?days=${days}`, signal);

export const analyticsQueryOptions = (days: number) =>
  queryOptions({
    queryKey: ['admin', 'analytics', days],
    queryFn: ({ signal }) => getAnalytics(days, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export const useAnalytics = (days: number) => useQuery(analyticsQueryOptions(days));
