import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Onboarding } from '@chorus/shared/api/onboarding';
import { api } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { onboardingQueryKey } from './get-onboarding';

/** Answers the checklist as it is now. */
export const updateOnboarding = (dismissed: boolean) =>
  api.patch<Onboarding>('/rest/v1/onboarding', { dismissed });

/** Hides or shows the checklist at once; puts it back as it was when the server refuses. */
export const useSetChecklistDismissed = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOnboarding,
    onMutate: async (dismissed) => {
      await queryClient.cancelQueries({ queryKey: onboardingQueryKey });
      const before = queryClient.getQueryData<Onboarding>(onboardingQueryKey);
      if (before)
        queryClient.setQueryData<Onboarding>(onboardingQueryKey, { ...before, dismissed });
      return { before };
    },
    onSuccess: (onboarding) => queryClient.setQueryData(onboardingQueryKey, onboarding),
    onError: (error, dismissed, context) => {
      if (context?.before) queryClient.setQueryData(onboardingQueryKey, context.before);
      void queryClient.invalidateQueries({ queryKey: onboardingQueryKey });
      toast.error(dismissed ? 'Could not hide the checklist' : 'Could not show the checklist', {
        description: errorMessage(error),
      });
    },
  });
};
