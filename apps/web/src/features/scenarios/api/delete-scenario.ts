import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scenarioQueryKey } from './get-scenario';
import { scenarioPath, scenariosQueryKey } from './get-scenarios';

export const deleteScenario = (id: string) => api.delete<void>(scenarioPath(id));

export const useDeleteScenario = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScenario,
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: scenarioQueryKey(id) });
      return queryClient.invalidateQueries({ queryKey: [...scenariosQueryKey, 'list'] });
    },
  });
};
