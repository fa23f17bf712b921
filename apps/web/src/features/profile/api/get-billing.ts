import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingStatus } from '@chorus/shared/api/billing';
import { api } from '@/lib/api-client';

export const billingQueryKey = (userId: string) => ['profile', userId, 'billing'] as const;

export const getBilling = (signal?: AbortSignal) =>
  api.get<BillingStatus>('/rest/v1/profile/billing', signal);

export const billingQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: billingQueryKey(userId),
    queryFn: ({ signal }) => getBilling(signal),
    staleTime: 60_000,
  });

export const useBilling = (userId: string) => useQuery(billingQueryOptions(userId));
