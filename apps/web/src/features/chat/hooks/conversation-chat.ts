import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { storedRowsFromExchange, textOf } from '@/lib/chat/chat-rows';
import { chatFailureText, describeSendFailure } from '@/lib/chat/describe-chat-error';
import { unsentMessages } from '@/lib/chat/unsent';
import type { LiveChat, LiveChatBody } from '@/lib/chat/live-chat';
import type { LiveChatModule } from '@/lib/chat/use-live-chat';
import {
  appendToHistory,
  historyMessages,
  messagesQueryKey,
  type MessageHistory,
} from '@/lib/queries/messages';
import { useSession } from '@/lib/session';
import { isOnline } from '@/lib/use-online';
import { useChatFeature } from '../components/chat-context';
import { buildChatRequest, type ChatSendOptions } from './chat-request';

export const chatEndpoint = '/functions/v1/chat';

/** The `body` a conversation passes to `sendMessage` / `regenerate`. */
export type ConversationChatBody = LiveChatBody<ChatSendOptions>;

type ConversationChatInput = {
  conversationId: string;
  userId: string;
  queryClient: QueryClient;
};

/**
 * One conversation's stream: `POST /functions/v1/chat` with only the new text (the server holds
 * the history). It holds only the exchange in flight: once the reply ends, its rows move into the
 * conversation's cached history.
 */
export const createConversationChat = (
  module: LiveChatModule,
  { conversationId, userId, queryClient }: ConversationChatInput,
): LiveChat =>
  module.createLiveChat<ChatSendOptions>({
    id: conversationId,
    endpoint: chatEndpoint,
    buildBody: ({ trigger, text, messageId, options }) =>
      buildChatRequest(options, trigger, text, messageId),
    onSettled: ({ chat, message, messages, interrupted, failed }) => {
      const key = messagesQueryKey(conversationId);
      // Failed or stopped before the server said it had the message: keep it, marked "Not sent".
      const sentUser = messages.findLast((m) => m.role === 'user');
      const stored = new Set(
        historyMessages(queryClient.getQueryData<MessageHistory>(key)).map((m) => m.id),
      );
      if ((failed || interrupted) && !message.metadata?.user_message_id && sentUser) {
        const text = textOf(sentUser);
        // A regenerate sends no new message: its user message is stored already.
        if (text.trim() && !stored.has(sentUser.id)) {
          const failure = failed
            ? describeSendFailure(chat.error, isOnline())
            : { reason: chatFailureText.stopped };
          unsentMessages.add(userId, conversationId, {
            id: sentUser.id,
            text,
            reason: failure.reason,
            code: failure.code,
            at: Date.now(),
          });
        }
      }
      const rows = storedRowsFromExchange({
        conversationId,
        userId,
        live: messages,
        reply: message,
        interrupted,
      });
      if (rows) {
        appendToHistory(queryClient, conversationId, rows);
        chat.messages = [];
        // A failed stream: the server's copy says what was kept, and why. A regenerate (its user
        // message was stored before): the server's copy numbers the answer's versions.
        const regenerated = stored.has(message.metadata?.user_message_id ?? '');
        if (failed || interrupted || regenerated)
          void queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      // The stream never said which rows it stored (refused before it began): ask the server.
      void queryClient.invalidateQueries({ queryKey: key }).finally(() => {
        chat.messages = [];
      });
    },
  });

/**
 * Finds a conversation's stream in the chat feature's registry, creating it on first use. The
 * registry lives in the feature's context, so a reply keeps streaming while the URL changes from
 * /chat to /chat/{id}, or to another conversation.
 */
export const useConversationChats = () => {
  const { liveChats } = useChatFeature();
  const queryClient = useQueryClient();
  const userId = useSession().user?.id ?? '';
  return useCallback(
    (module: LiveChatModule, conversationId: string): LiveChat => {
      let chat = liveChats.get(conversationId);
      if (!chat) {
        chat = createConversationChat(module, { conversationId, userId, queryClient });
        liveChats.set(conversationId, chat);
      }
      return chat;
    },
    [liveChats, queryClient, userId],
  );
};
