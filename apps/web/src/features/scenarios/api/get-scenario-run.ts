import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ScenarioRun } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { isClientError } from '@/lib/api-error';

export const scenarioRunQueryKey = (runId: string) => ['scenario-runs', 'detail', runId] as const;

export const scenarioRunPath = (runId: string) =>
  `/rest/v1/scenario-runs/${encodeURIComponent(runId)}`;

export const getScenarioRun = (runId: string, signal?: AbortSignal) =>
  api.get<ScenarioRun>(scenarioRunPath(runId), signal);

export const scenarioRunQueryOptions = (runId: string) =>
  queryOptions({
    queryKey: scenarioRunQueryKey(runId),
    queryFn: ({ signal }) => getScenarioRun(runId, signal),
    retry: (failures, error) => !isClientError(error) && failures < 2,
    // A run opened while it still runs (a reload mid-run) fills in as the server saves it.
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 2_000 : false),
  });

export const useScenarioRun = (runId: string | null, enabled = true) =>
  useQuery({ ...scenarioRunQueryOptions(runId ?? ''), enabled: runId !== null && enabled });
