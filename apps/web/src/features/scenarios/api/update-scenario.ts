import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Scenario, UpdateScenario } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { scenarioQueryKey } from './get-scenario';
import { scenarioPath, scenariosQueryKey } from './get-scenarios';

export const updateScenario = ({ id, patch }: { id: string; patch: UpdateScenario }) =>
  api.patch<Scenario>(scenarioPath(id), patch);

export const useUpdateScenario = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateScenario,
    onSuccess: (scenario) => {
      queryClient.setQueryData(scenarioQueryKey(scenario.id), scenario);
      return queryClient.invalidateQueries({ queryKey: [...scenariosQueryKey, 'list'] });
    },
  });
};
