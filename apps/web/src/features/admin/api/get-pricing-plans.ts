import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPricingPlansResponse } from '@chorus/shared/api/plans';
import { api } from '@/lib/api-client';

export const pricingPlansQueryKey = ['admin', 'pricing-plans'] as const;

export const getPricingPlans = (signal?: AbortSignal) =>
  api.get<AdminPricingPlansResponse>('/rest/v1/admin/pricing-plans', signal);

export const pricingPlansQueryOptions = () =>
  queryOptions({
    queryKey: pricingPlansQueryKey,
    queryFn: ({ signal }) => getPricingPlans(signal),
  });

export const usePricingPlans = () => useQuery(pricingPlansQueryOptions());
