import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ScenarioPage } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';

export const scenariosQueryKey = ['scenarios'] as const;
export const scenarioPageSize = 20;

export const scenarioPath = (id: string) => `/rest/v1/scenarios/${encodeURIComponent(id)}`;

export const getScenarios = (
  { search, cursor }: { search: string; cursor: string | null },
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: String(scenarioPageSize) });
  if (search.trim()) params.set('search', search.trim());
  if (cursor) params.set('cursor', cursor);
  return api.get<ScenarioPage>(`/rest/v1/scenarios?${params.toString()}`, signal);
};

export const scenariosQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: [...scenariosQueryKey, 'list', { search: search.trim() }],
    queryFn: ({ pageParam, signal }) => getScenarios({ search, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

/** Keeps the previous list on screen while another search loads. */
export const useScenarios = (search: string) =>
  useInfiniteQuery({ ...scenariosQueryOptions(search), placeholderData: keepPreviousData });
