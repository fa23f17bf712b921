import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PatchAdminUser, UserStatisticsRow } from '@chorus/shared/api/admin';
import { api } from '@/lib/api-client';
import { adminUsersQueryKey } from './get-users';
import { invalidateAuditLog } from './get-audit-logs';
import { adminOverviewQueryKey } from './get-overview';

export type UpdateUserInput = { userId: string; change: PatchAdminUser };

/** One change to one user: plan, role, or suspension. */
export const updateAdminUser = ({ userId, change }: UpdateUserInput) =>
  api.patch<UserStatisticsRow>(`/rest/v1/admin/users/${encodeURIComponent(userId)}`, change);

export const useUpdateAdminUser = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAdminUser,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: adminUsersQueryKey });
      void queryClient.invalidateQueries({ queryKey: adminOverviewQueryKey });
      invalidateAuditLog(queryClient);
    },
  });
};
