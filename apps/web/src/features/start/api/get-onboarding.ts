import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Onboarding } from '@chorus/shared/api/onboarding';
import { api } from '@/lib/api-client';

export const onboardingQueryKey = ['onboarding'] as const;

export const getOnboarding = (signal?: AbortSignal) =>
  api.get<Onboarding>('/rest/v1/onboarding', signal);

export const onboardingQueryOptions = () =>
  queryOptions({
    queryKey: onboardingQueryKey,
    queryFn: ({ signal }) => getOnboarding(signal),
    // A step is done elsewhere (a key saved, a first reply): coming back to /start, or to the
    // tab, asks again.
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
  });

export const useOnboarding = () => useQuery(onboardingQueryOptions());
