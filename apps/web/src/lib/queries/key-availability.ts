import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderAvailability } from '@chorus/shared/api/keys';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';

/**
 * Which providers a call would find a key for, read by the keys page and the chat. Under the
 * keys' query key (`['api-keys']`), so saving, removing or granting a key refreshes it too.
 */
export const keyAvailabilityQueryKey = ['api-keys', 'availability'] as const;

export const getKeyAvailability = (signal?: AbortSignal) =>
  api.get<ProviderAvailability[]>('/rest/v1/api-keys/availability', signal);

export const keyAvailabilityQueryOptions = () =>
  queryOptions({
    queryKey: keyAvailabilityQueryKey,
    queryFn: ({ signal }) => getKeyAvailability(signal),
    staleTime: 30_000,
  });

export const useKeyAvailability = () => useQuery(keyAvailabilityQueryOptions());

/**
 * Whether a call to `provider` would find a key (own, default, system, or none needed). Unknown
 * (undefined) while loading or when the lookup fails: the send itself still reports a refusal.
 */
export const useProviderHasKey = (provider: ProviderId): boolean | undefined => {
  const { data } = useKeyAvailability();
  const entry = data?.find((item) => item.provider === provider);
  if (!entry) return undefined;
  return entry.enabled && entry.source !== null;
};
