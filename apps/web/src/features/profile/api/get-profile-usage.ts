import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProfileUsage } from '@chorus/shared/api/usage';
import { api } from '@/lib/api-client';

export const profileUsageQueryKey = (userId: string) => ['profile', userId, 'usage'] as const;

export const getProfileUsage = (signal?: AbortSignal) =>
  api.get<ProfileUsage>('/rest/v1/profile/usage', signal);

/** Spec §9: usage is cached for 30 s. */
export const profileUsageQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: profileUsageQueryKey(userId),
    queryFn: ({ signal }) => getProfileUsage(signal),
    staleTime: 30_000,
  });

export const useProfileUsage = (userId: string) => useQuery(profileUsageQueryOptions(userId));
