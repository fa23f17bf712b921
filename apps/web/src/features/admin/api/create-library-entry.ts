import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateLibraryPrompt, CreateLibraryScenario } from '@chorus/shared/api/library';
import { api } from '@/lib/api-client';
import { adminLibraryQueryKey } from './get-admin-library';
import { invalidateAuditLog } from './get-audit-logs';

export type CreateLibraryEntryInput =
  | { kind: 'prompts'; entry: CreateLibraryPrompt }
  | { kind: 'scenarios'; entry: CreateLibraryScenario };

export const createLibraryEntry = ({ kind, entry }: CreateLibraryEntryInput) =>
  api.post<unknown>(`/rest/v1/admin/${kind}`, entry);

export const useCreateLibraryEntry = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLibraryEntry,
    onSuccess: (_data, { kind }) => {
      invalidateAuditLog(queryClient);
      return queryClient.invalidateQueries({ queryKey: adminLibraryQueryKey(kind) });
    },
  });
};
