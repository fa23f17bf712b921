import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateScenario, Scenario } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { scenarioQueryKey } from './get-scenario';
import { scenariosQueryKey } from './get-scenarios';

export const createScenario = (body: CreateScenario) =>
  api.post<Scenario>('/rest/v1/scenarios', body);

export const useCreateScenario = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createScenario,
    onSuccess: (scenario) => {
      queryClient.setQueryData(scenarioQueryKey(scenario.id), scenario);
      return queryClient.invalidateQueries({ queryKey: [...scenariosQueryKey, 'list'] });
    },
  });
};
