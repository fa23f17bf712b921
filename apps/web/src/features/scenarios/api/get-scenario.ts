import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { isClientError } from '@/lib/api-error';
import { scenarioPath, scenariosQueryKey } from './get-scenarios';

export const scenarioQueryKey = (id: string) => [...scenariosQueryKey, 'detail', id] as const;

export const getScenario = (id: string, signal?: AbortSignal) =>
  api.get<Scenario>(scenarioPath(id), signal);

export const scenarioQueryOptions = (id: string) =>
  queryOptions({
    queryKey: scenarioQueryKey(id),
    queryFn: ({ signal }) => getScenario(id, signal),
    // A missing or foreign scenario stays missing: no retries before saying so.
    retry: (failures, error) => !isClientError(error) && failures < 2,
  });

export const useScenarioDetail = (id: string | null) =>
  useQuery({ ...scenarioQueryOptions(id ?? ''), enabled: id !== null });
