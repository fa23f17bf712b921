import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Conversation } from '@chorus/shared/api/conversations';
import { pinMessages } from '@chorus/shared/share-messages';
import { api } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import {
  conversationsQueryKey,
  placeConversation,
  restoreConversationLists,
  snapshotConversationLists,
  type ConversationListPages,
} from './conversations';

export type PinConversationInput = { conversation: Conversation; pinned: boolean };

export const pinConversation = ({ conversation, pinned }: PinConversationInput) =>
  api.patch<Conversation>(`/rest/v1/conversations/${encodeURIComponent(conversation.id)}`, {
    pinned,
  });

/** Places the conversation in every loaded list; only the unfiltered one gains a missing row. */
const placeEverywhere = (queryClient: QueryClient, conversation: Conversation) => {
  for (const [key] of queryClient.getQueriesData<ConversationListPages>({
    queryKey: conversationsQueryKey,
  })) {
    const filter = key[2] as { search?: string } | undefined;
    queryClient.setQueryData<ConversationListPages>(key, (data) =>
      data ? placeConversation(data, conversation, { insert: !filter?.search }) : data,
    );
  }
};

/**
 * Pins or unpins at once, moving the row to or from the "Pinned" group; puts everything back,
 * with a toast, when the server refuses.
 */
export const usePinConversation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pinConversation,
    onMutate: async ({ conversation, pinned }) => {
      // A list arriving meanwhile would undo the move until the answer comes.
      await queryClient.cancelQueries({ queryKey: conversationsQueryKey });
      const snapshot = snapshotConversationLists(queryClient);
      placeEverywhere(queryClient, {
        ...conversation,
        pinned_at: pinned ? (conversation.pinned_at ?? new Date().toISOString()) : null,
      });
      return { snapshot };
    },
    onError: (error, { pinned }, context) => {
      if (context) restoreConversationLists(queryClient, context.snapshot);
      toast.error(pinned ? pinMessages.pinFailed : pinMessages.unpinFailed, {
        description: errorMessage(error),
      });
    },
    // The server's pin time decides the order among pinned conversations.
    onSuccess: (conversation) => placeEverywhere(queryClient, conversation),
  });
};
