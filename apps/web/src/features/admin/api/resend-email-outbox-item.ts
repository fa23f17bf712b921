import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailOutboxItem } from '@chorus/shared/api/email';
import { api } from '@/lib/api-client';
import { emailOutboxQueryKey } from './get-email-outbox';
import { invalidateAuditLog } from './get-audit-logs';

export const resendEmailOutboxItem = (id: string) =>
  api.post<EmailOutboxItem>(`/rest/v1/admin/email-outbox/${encodeURIComponent(id)}/resend`);

export const useResendEmailOutboxItem = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendEmailOutboxItem,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: emailOutboxQueryKey });
    },
  });
};
