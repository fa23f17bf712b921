import { Chat, useChat } from '@ai-sdk/react';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { DefaultChatTransport, type ChatStatus } from 'ai';
import type { Message } from '@chorus/shared/api/conversations';
import { apiErrorFromResponse } from '@/lib/api-error';
import { afterCall, beforeCall, onCallFailed, onWriteSucceeded } from '@/lib/resilience/runtime';
import { messagesQueryKey } from '../api/get-messages';
import { buildChatRequest, type ChatSendOptions } from './chat-request';
import { mergeExchange, storedRowsFromExchange, textOf, type ChorusUIMessage } from './chat-rows';

export type LiveChat = Chat<ChorusUIMessage>;

/** The body the page passes to `sendMessage` / `regenerate`; the transport turns it into a ChatRequest. */
export type LiveChatBody = { chorus: ChatSendOptions };

export const chatEndpoint = '/functions/v1/chat';

const providerOf = (body: BodyInit | null | undefined): string | undefined => {
  if (typeof body !== 'string') return undefined;
  try {
    const provider = (JSON.parse(body) as { provider?: unknown }).provider;
    return typeof provider === 'string' ? provider : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The stream goes through the browser's rate limiter and the provider's throttle like every
 * other call; a 429 starts the global block. Errors before the stream starts are JSON
 * `{error, code}`: their status and code are kept.
 */
const chatFetch: typeof fetch = async (input, init) => {
  const call = { method: 'POST', path: chatEndpoint, provider: providerOf(init?.body) };
  await beforeCall(call);
  const startedAt = Date.now();
  const response = await fetch(input, init);
  afterCall(call, response.status, startedAt);
  if (!response.ok) {
    const error = await apiErrorFromResponse(response);
    onCallFailed(call, error);
    throw error;
  }
  onWriteSucceeded();
  return response;
};

type CreateLiveChatInput = {
  conversationId: string;
  userId: string;
  queryClient: QueryClient;
};

/**
 * This module is the streaming client (the AI SDK and its schemas). The chat page shows a
 * conversation without it and imports it when idle or on the first send, which keeps it out
 * of the chat route's initial JavaScript.
 */

/**
 * One conversation's stream. It lives in the chat feature's context, not in a page, so a reply
 * keeps streaming while the URL changes from /chat to /chat/{id}. It holds only the exchange in
 * flight: once the reply ends, its rows move into the conversation's cached history.
 */
export const createLiveChat = ({ conversationId, userId, queryClient }: CreateLiveChatInput) => {
  const key = messagesQueryKey(conversationId);
  const chat: LiveChat = new Chat<ChorusUIMessage>({
    id: conversationId,
    transport: new DefaultChatTransport<ChorusUIMessage>({
      api: chatEndpoint,
      credentials: 'include',
      fetch: chatFetch,
      prepareSendMessagesRequest: ({ messages, body, trigger }) => {
        const options = (body as Partial<LiveChatBody> | undefined)?.chorus;
        if (!options) throw new Error('The chat was sent without its provider settings');
        const lastUser = messages.findLast((message) => message.role === 'user');
        return { body: buildChatRequest(options, trigger, lastUser ? textOf(lastUser) : '') };
      },
    }),
    onFinish: ({ message, messages, isAbort, isError, isDisconnect }) => {
      const rows = storedRowsFromExchange({
        conversationId,
        userId,
        live: messages,
        reply: message,
        interrupted: isAbort || isError || isDisconnect,
      });
      if (rows) {
        queryClient.setQueryData<Message[]>(key, (history = []) => mergeExchange(history, rows));
        chat.messages = [];
        // A failed stream: the server's copy says what was kept.
        if (isError) void queryClient.invalidateQueries({ queryKey: key });
        return;
      }
      // The stream never said which rows it stored (refused before it began): ask the server.
      void queryClient.invalidateQueries({ queryKey: key }).finally(() => {
        chat.messages = [];
      });
    },
  });
  return chat;
};

/** What the page needs to draw the exchange in flight. */
export type LiveSnapshot = {
  chat: LiveChat;
  messages: ChorusUIMessage[];
  status: ChatStatus;
  error: Error | undefined;
};

/** Subscribes to one chat with the AI SDK's `useChat` and hands each change to the page. */
export const LiveChatSubscriber = ({
  chat,
  onChange,
}: {
  chat: LiveChat;
  onChange: (snapshot: LiveSnapshot) => void;
}) => {
  const { messages, status, error } = useChat({ chat, throttle: 50 });
  useEffect(() => {
    onChange({ chat, messages, status, error });
  }, [chat, messages, status, error, onChange]);
  return null;
};
