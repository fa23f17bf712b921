import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurationPatch, LibraryKind } from '@chorus/shared/api/library';
import { api } from '@/lib/api-client';
import { adminLibraryQueryKey } from './get-admin-library';
import { invalidateAuditLog } from './get-audit-logs';

export type CurateInput = { kind: LibraryKind; id: string; patch: CurationPatch };

export const curateLibraryEntry = ({ kind, id, patch }: CurateInput) =>
  api.patch<unknown>(`/rest/v1/admin/${kind}/${id}`, patch);

export const useCurateLibraryEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: curateLibraryEntry,
    onSuccess: (_data, { kind }) => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminLibraryQueryKey(kind) });
    },
  });
};
