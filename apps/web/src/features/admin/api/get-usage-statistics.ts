import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { USAGE_MAX_RANGE_DAYS, type UsageStatisticsResponse } from '@chorus/shared/api/usage';
import { api } from '@/lib/api-client';

export type UsageRange = { from: string; to: string };

/** Why a range cannot be asked for, or null when it can. */
export const rangeProblem = ({ from, to }: UsageRange): string | null => {
  if (!from || !to) return 'Pick both dates.';
  if (from > to) return 'The start date must be on or before the end date.';
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days > USAGE_MAX_RANGE_DAYS) return `Pick at most ${USAGE_MAX_RANGE_DAYS} days.`;
  return null;
};

const params = ({ from, to }: UsageRange) => new URLSearchParams({ from, to });

export const getUsageStatistics = (range: UsageRange, signal?: AbortSignal) =>
  api.get<UsageStatisticsResponse>(`/rest/v1/admin/usage-statistics?${params(range)}`, signal);

/** Where the browser downloads the CSV of one table (the server sends it as an attachment). */
export const usageStatisticsCsvUrl = (
  range: UsageRange,
  table: 'prompt_usage' | 'tokens' | 'sources',
) => {
  const query = params(range);
  query.set('format', 'csv');
  query.set('table', table);
  return `/rest/v1/admin/usage-statistics?${query}`;
};

export const usageStatisticsQueryOptions = (range: UsageRange) =>
  queryOptions({
    queryKey: ['admin', 'usage-statistics', range],
    queryFn: ({ signal }) => getUsageStatistics(range, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export const useUsageStatistics = (range: UsageRange, enabled: boolean) =>
  useQuery({ ...usageStatisticsQueryOptions(range), enabled });
