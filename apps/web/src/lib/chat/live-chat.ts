import { Chat, useChat } from '@ai-sdk/react';
import { useEffect } from 'react';
import { DefaultChatTransport, type ChatStatus } from 'ai';
import { apiStream } from '@/lib/api-client';
import { textOf, type ChorusUIMessage } from './chat-rows';

/**
 * The streaming client of the chat engine: the AI SDK's `Chat` over one endpoint. It knows
 * nothing of conversations, agents or widgets: the owner says where the stream comes from, what
 * each request carries, and what to do with a reply once it ends. The views show a history
 * without this module and import it when idle or on the first send, which keeps the AI SDK out
 * of their initial JavaScript.
 */
export type LiveChat = Chat<ChorusUIMessage>;

export type ChatTrigger = 'submit-message' | 'regenerate-message';

/** What a sender passes as `body` to `sendMessage` / `regenerate`: handed to `buildBody`. */
export type LiveChatBody<O = unknown> = { options: O };

export type LiveChatSettled = {
  chat: LiveChat;
  /** The reply as streamed, and the exchange it ends. */
  message: ChorusUIMessage;
  messages: ChorusUIMessage[];
  /** Stopped, failed or cut off: the server kept what arrived. */
  interrupted: boolean;
  failed: boolean;
};

export type LiveChatOptions<O> = {
  id: string;
  /** Where the UI message stream is asked for (a POST through the app's rate limiter). */
  endpoint: string;
  /**
   * The request body of a send or a regenerate; `text` and `messageId` are the last user
   * message's (a sender that gives its message an id can send it again under the same one).
   */
  buildBody: (input: {
    trigger: ChatTrigger;
    text: string;
    messageId: string | undefined;
    options: O;
  }) => object;
  /** A reply ended: the owner files it into its history (and empties the live copy). */
  onSettled: (end: LiveChatSettled) => void;
};

export const createLiveChat = <O>({
  id,
  endpoint,
  buildBody,
  onSettled,
}: LiveChatOptions<O>): LiveChat => {
  // Through the browser's rate limiter and the provider's throttle like every other call (a 429
  // starts the global block); errors before the stream starts are JSON `{error, code}`, kept as
  // ApiError with their status and code.
  const fetchStream: typeof fetch = (_input, init) => apiStream(endpoint, init);
  const chat: LiveChat = new Chat<ChorusUIMessage>({
    id,
    transport: new DefaultChatTransport<ChorusUIMessage>({
      api: endpoint,
      credentials: 'include',
      fetch: fetchStream,
      prepareSendMessagesRequest: ({ messages, body, trigger }) => {
        const sent = body as Partial<LiveChatBody<O>> | undefined;
        if (!sent || !('options' in sent)) throw new Error('The chat was sent without options');
        const lastUser = messages.findLast((message) => message.role === 'user');
        return {
          body: buildBody({
            trigger,
            text: lastUser ? textOf(lastUser) : '',
            messageId: lastUser?.id,
            options: sent.options as O,
          }),
        };
      },
    }),
    onFinish: ({ message, messages, isAbort, isError, isDisconnect }) =>
      onSettled({
        chat,
        message,
        messages,
        interrupted: isAbort || isError || isDisconnect,
        failed: isError,
      }),
  });
  return chat;
};

/** What a view needs to draw the exchange in flight. */
export type LiveSnapshot = {
  chat: LiveChat;
  messages: ChorusUIMessage[];
  status: ChatStatus;
  error: Error | undefined;
};

/** Subscribes to one chat with the AI SDK's `useChat` and hands each change to the view. */
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
