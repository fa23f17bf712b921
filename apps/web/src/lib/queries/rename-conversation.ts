import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Conversation } from '@chorus/shared/api/conversations';
import { api } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import {
  mapConversationLists,
  restoreConversationLists,
  snapshotConversationLists,
} from './conversations';

export type RenameConversationInput = { id: string; title: string };

export const renameConversation = ({ id, title }: RenameConversationInput) =>
  api.patch<Conversation>(`/rest/v1/conversations/${encodeURIComponent(id)}`, { title });

/** Renames the row at once; puts the old title back with a toast when the server refuses. */
export const useRenameConversation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameConversation,
    onMutate: ({ id, title }) => {
      const snapshot = snapshotConversationLists(queryClient);
      mapConversationLists(queryClient, (rows) =>
        rows.map((row) => (row.id === id ? { ...row, title } : row)),
      );
      return { snapshot };
    },
    onError: (error, _input, context) => {
      if (context) restoreConversationLists(queryClient, context.snapshot);
      toast.error('Could not rename the conversation', { description: errorMessage(error) });
    },
    onSuccess: (conversation) =>
      mapConversationLists(queryClient, (rows) =>
        rows.map((row) => (row.id === conversation.id ? conversation : row)),
      ),
  });
};
