import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LibraryKind } from '@chorus/shared/api/library';
import { api } from '@/lib/api-client';
import { adminLibraryQueryKey } from './get-admin-library';
import { invalidateAuditLog } from './get-audit-logs';

export const deleteLibraryEntry = ({ kind, id }: { kind: LibraryKind; id: string }) =>
  api.delete<void>(`/rest/v1/admin/${kind}/${id}`);

export const useDeleteLibraryEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLibraryEntry,
    onSuccess: (_data, { kind }) => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminLibraryQueryKey(kind) });
    },
  });
};
