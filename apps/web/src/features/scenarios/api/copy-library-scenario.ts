import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { scenarioQueryKey } from './get-scenario';
import { scenariosQueryKey } from './get-scenarios';

export const copyLibraryScenario = (id: string) =>
  api.post<Scenario>(`/rest/v1/library/scenarios/${encodeURIComponent(id)}/copy`);

/**
 * "Use this scenario": a copy of a cookbook entry in the user's own scenarios. A plain promise
 * rather than useMutation: the cookbook is a public page on the initial-JS budget, and
 * useMutation's chunk is a kilobyte it does not otherwise load.
 */
export const useCopyLibraryScenario = () => {
  const queryClient = useQueryClient();
  const [copyingId, setCopyingId] = useState<string | null>(null);
  const copy = async (id: string): Promise<Scenario> => {
    setCopyingId(id);
    try {
      const scenario = await copyLibraryScenario(id);
      queryClient.setQueryData(scenarioQueryKey(scenario.id), scenario);
      void queryClient.invalidateQueries({ queryKey: [...scenariosQueryKey, 'list'] });
      return scenario;
    } finally {
      setCopyingId(null);
    }
  };
  return { copy, copyingId };
};
