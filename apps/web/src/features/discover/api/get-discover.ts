import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { DiscoverPage } from '@chorus/shared/api/discover';
import { api } from '@/lib/api-client';
import { discoverApiPath, type DiscoverFilters } from '../utils/discover-params';

export const discoverQueryKey = ['discover'] as const;

export const getDiscoverPage = (
  filters: DiscoverFilters,
  cursor: string | null,
  signal?: AbortSignal,
) => api.get<DiscoverPage>(discoverApiPath(filters, cursor), signal);

export const discoverQueryOptions = (filters: DiscoverFilters) =>
  infiniteQueryOptions({
    queryKey: [...discoverQueryKey, filters],
    queryFn: ({ pageParam, signal }) => getDiscoverPage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 30_000,
  });

/** Keeps the previous results on screen while another filter loads. */
export const useDiscover = (filters: DiscoverFilters) =>
  useInfiniteQuery({ ...discoverQueryOptions(filters), placeholderData: keepPreviousData });
