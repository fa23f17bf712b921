import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderAvailability } from '@chorus/shared/api/keys';
import { api } from '@/lib/api-client';
import { apiKeysQueryKey } from './get-api-keys';

/** Under the keys' query key, so saving, removing or granting a key refreshes it too. */
export const keyAvailabilityQueryKey = [...apiKeysQueryKey, 'availability'] as const;

export const getKeyAvailability = (signal?: AbortSignal) =>
  api.get<ProviderAvailability[]>('/rest/v1/api-keys/availability', signal);

export const keyAvailabilityQueryOptions = () =>
  queryOptions({
    queryKey: keyAvailabilityQueryKey,
    queryFn: ({ signal }) => getKeyAvailability(signal),
  });

export const useKeyAvailability = () => useQuery(keyAvailabilityQueryOptions());
