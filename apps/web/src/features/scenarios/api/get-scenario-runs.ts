import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ScenarioRunPage } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { scenarioPath } from './get-scenarios';

export const scenarioRunsQueryKey = (scenarioId: string) =>
  ['scenario-runs', 'of', scenarioId] as const;

export const getScenarioRuns = (
  { scenarioId, cursor }: { scenarioId: string; cursor: string | null },
  signal?: AbortSignal,
) => {
  const params = new URLSearchParams({ limit: '20' });
  if (cursor) params.set('cursor', cursor);
  return api.get<ScenarioRunPage>(`${scenarioPath(scenarioId)}/runs?${params.toString()}`, signal);
};

export const scenarioRunsQueryOptions = (scenarioId: string) =>
  infiniteQueryOptions({
    queryKey: scenarioRunsQueryKey(scenarioId),
    queryFn: ({ pageParam, signal }) => getScenarioRuns({ scenarioId, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });

export const useScenarioRuns = (scenarioId: string) =>
  useInfiniteQuery(scenarioRunsQueryOptions(scenarioId));
