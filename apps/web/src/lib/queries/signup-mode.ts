import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SignupModeResponse } from '@chorus/shared/api/settings';
import { api } from '@/lib/api-client';

export const getSignupMode = (signal?: AbortSignal) =>
  api.get<SignupModeResponse>('/rest/v1/signup-mode', signal);

export const signupModeQueryKey = ['signup-mode'] as const;

export const signupModeQueryOptions = () =>
  queryOptions({
    queryKey: signupModeQueryKey,
    queryFn: ({ signal }) => getSignupMode(signal),
    staleTime: 60_000,
  });

export const useSignupMode = () => useQuery(signupModeQueryOptions());
