import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminPricingPlan,
  CreatePricingPlanInput,
  UpdatePricingPlanInput,
} from '@chorus/shared/api/plans';
import { api } from '@/lib/api-client';
import { pricingPlansQueryKey } from './get-pricing-plans';
import { invalidateAuditLog } from './get-audit-logs';
import { adminUsersQueryKey } from './get-users';

export type SavePricingPlanInput =
  { id: null; plan: CreatePricingPlanInput } | { id: string; plan: UpdatePricingPlanInput };

/** Creates a plan (no id) or changes one. */
export const savePricingPlan = (input: SavePricingPlanInput) =>
  input.id === null
    ? api.post<AdminPricingPlan>('/rest/v1/admin/pricing-plans', input.plan)
    : api.patch<AdminPricingPlan>(`/rest/v1/admin/pricing-plans/${input.id}`, input.plan);

export const useSavePricingPlan = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePricingPlan,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      // The users list shows each user's plan and offers the plans to choose from.
      void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
      return queryClient.invalidateQueries({ queryKey: pricingPlansQueryKey });
    },
  });
};
