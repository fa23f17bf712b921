import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateAuditLog } from './get-audit-logs';
import { jobsQueryKey } from './get-jobs';

export const retryJob = ({ name, id }: { name: string; id: string }) =>
  api.post<{ retried: true }>(
    `/rest/v1/admin/jobs/${encodeURIComponent(name)}/failed/${encodeURIComponent(id)}/retry`,
  );

export const useRetryJob = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSuccess: () => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: jobsQueryKey });
    },
  });
};
