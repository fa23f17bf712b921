import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeletePricingPlanResponse } from '@chorus/shared/api/plans';
import { api } from '@/lib/api-client';
import { pricingPlansQueryKey } from './get-pricing-plans';
import { invalidateAuditLog } from './get-audit-logs';
import { adminUsersQueryKey } from './get-users';

export const deletePricingPlan = (id: string) =>
  api.delete<DeletePricingPlanResponse>(`/rest/v1/admin/pricing-plans/${id}`);

export const useDeletePricingPlan = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePricingPlan,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      // The users list shows each user's plan and offers the plans to choose from.
      void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
      return queryClient.invalidateQueries({ queryKey: pricingPlansQueryKey });
    },
  });
};
