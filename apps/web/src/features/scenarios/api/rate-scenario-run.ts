import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RateScenarioRun, ScenarioRun } from '@chorus/shared/api/scenarios';
import { api } from '@/lib/api-client';
import { scenarioRunPath, scenarioRunQueryKey } from './get-scenario-run';

export const rateScenarioRun = ({ runId, body }: { runId: string; body: RateScenarioRun }) =>
  api.patch<ScenarioRun | undefined>(scenarioRunPath(runId), body);

const applyRating = (run: ScenarioRun, body: RateScenarioRun): ScenarioRun => ({
  ...run,
  results: body.ratings
    ? run.results.map((result, i) => ({ ...result, rating: body.ratings?.[i] ?? null }))
    : run.results,
  winner: body.winner === undefined ? run.winner : body.winner,
});

/** Rates columns or picks the winner, shown at once and put back if the server refuses. */
export const useRateScenarioRun = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rateScenarioRun,
    onMutate: async ({ runId, body }) => {
      const key = scenarioRunQueryKey(runId);
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<ScenarioRun>(key);
      if (before) queryClient.setQueryData(key, applyRating(before, body));
      return { before };
    },
    onError: (_error, { runId }, context) => {
      if (context?.before) queryClient.setQueryData(scenarioRunQueryKey(runId), context.before);
    },
    onSuccess: (run, { runId }) => {
      if (run && typeof run === 'object' && 'results' in run) {
        queryClient.setQueryData(scenarioRunQueryKey(runId), run);
      }
      return queryClient.invalidateQueries({ queryKey: ['scenario-runs', 'of'] });
    },
  });
};
