import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import {
  mapConversationLists,
  restoreConversationLists,
  snapshotConversationLists,
} from './conversations';
import { messagesQueryKey } from './messages';

export const deleteConversation = (id: string) =>
  api.delete<void>(`/rest/v1/conversations/${encodeURIComponent(id)}`);

/** Removes the row at once; puts it back with a toast when the server refuses. */
export const useDeleteConversation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteConversation,
    onMutate: (id) => {
      const snapshot = snapshotConversationLists(queryClient);
      mapConversationLists(queryClient, (rows) => rows.filter((row) => row.id !== id));
      return { snapshot };
    },
    onError: (error, _id, context) => {
      if (context) restoreConversationLists(queryClient, context.snapshot);
      toast.error('Could not delete the conversation', { description: errorMessage(error) });
    },
    onSuccess: (_data, id) => queryClient.removeQueries({ queryKey: messagesQueryKey(id) }),
  });
};
