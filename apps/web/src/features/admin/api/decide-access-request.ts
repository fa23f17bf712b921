import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AccessRequest } from '@chorus/shared/api/access-requests';
import { api } from '@/lib/api-client';
import { accessRequestsQueryKey } from './get-access-requests';
import { invalidateAuditLog } from './get-audit-logs';
import { adminOverviewQueryKey } from './get-overview';

export type AccessDecision = { id: string; decision: 'approve' | 'decline' };

/** Approve (e-mails a one-time invitation link) or decline a request. */
export const decideAccessRequest = ({ id, decision }: AccessDecision) =>
  api.post<AccessRequest>(`/rest/v1/admin/access-requests/${encodeURIComponent(id)}/${decision}`);

export const useDecideAccessRequest = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideAccessRequest,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accessRequestsQueryKey });
      void queryClient.invalidateQueries({ queryKey: adminOverviewQueryKey });
      invalidateAuditLog(queryClient);
    },
  });
};
