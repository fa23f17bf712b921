import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminCustomAi, PublishCustomAi, RejectCustomAi } from '@chorus/shared/api/custom-ais';
import { api } from '@/lib/api-client';
import { adminCustomAisQueryKey } from './get-admin-custom-ais';
import { invalidateAuditLog } from './get-audit-logs';

export type CustomAiDecision =
  | { id: string; action: 'publish'; body: PublishCustomAi }
  | { id: string; action: 'reject'; body: RejectCustomAi };

export const curateCustomAi = ({ id, action, body }: CustomAiDecision) =>
  api.post<AdminCustomAi>(`/rest/v1/admin/custom-ais/${encodeURIComponent(id)}/${action}`, body);

/** Publish (featured or not) or reject with a note; both are written to the audit log. */
export const useCurateCustomAi = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: curateCustomAi,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminCustomAisQueryKey });
    },
  });
};
