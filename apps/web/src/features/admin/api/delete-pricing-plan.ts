import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeletePricingPlanResponse } from '@chorus/shared/api/plans';
import { api } from '@/lib/api-client';
import { pricingPlansQueryKey } from './get-pricing-plans';

export const deletePricingPlan = (id: string) =>
  api.delete<DeletePricingPlanResponse>(`/rest/v1/admin/pricing-plans/${id}`);

export const useDeletePricingPlan = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePricingPlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pricingPlansQueryKey }),
  });
};
