import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicNameAvailability } from '@chorus/shared/api/profile';
import { api } from '@/lib/api-client';

export const checkPublicName = (name: string, signal?: AbortSignal) =>
  api.get<PublicNameAvailability>(
    `/rest/v1/profile/public-name-available?name=${encodeURIComponent(name)}`,
    signal,
  );

export const publicNameQueryOptions = (name: string) =>
  queryOptions({
    queryKey: ['profile', 'public-name-available', name.toLowerCase()],
    queryFn: ({ signal }) => checkPublicName(name, signal),
    staleTime: 10_000,
  });

/** Checks `name` (already debounced by the caller); idle while it is empty. */
export const usePublicNameAvailability = (name: string, enabled: boolean) =>
  useQuery({ ...publicNameQueryOptions(name), enabled: enabled && name.trim() !== '' });
