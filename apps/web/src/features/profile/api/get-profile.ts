import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '@chorus/shared/api/profile';
import { api } from '@/lib/api-client';

export const profileQueryKey = (userId: string) => ['profile', userId] as const;

export const getProfile = (signal?: AbortSignal) => api.get<Profile>('/rest/v1/profile', signal);

export const profileQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: profileQueryKey(userId),
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 60_000,
  });

export const useProfile = (userId: string) => useQuery(profileQueryOptions(userId));
