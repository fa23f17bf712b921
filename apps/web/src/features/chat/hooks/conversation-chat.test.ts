import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from '@chorus/shared/api/conversations';
import { isApiError } from '@/lib/api-error';
import { uiMessageFromStored } from '@/lib/chat/chat-rows';
import * as liveChatModule from '@/lib/chat/live-chat';
import {
  historyMessages,
  historyOf,
  messagesQueryKey,
  type MessageHistory,
} from '@/lib/queries/messages';
import {
  chatEndpoint,
  createConversationChat,
  type ConversationChatBody,
} from './conversation-chat';

const conversationId = '0b9f6a4e-6f0e-4a53-9d0c-1b7c2f0e2a11';

const body = (extra: Partial<ConversationChatBody['options']> = {}): ConversationChatBody => ({
  options: {
    conversationId,
    provider: 'openai',
    settings: { model: 'gpt-4.1', temperature: 0.7, topP: undefined, maxTokens: undefined },
    ...extra,
  },
});

/** An AI SDK UI message stream, as the server sends it. */
const uiStream = (chunks: object[]) =>
  new Response(
    chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n',
    {
      headers: {
        'content-type': 'text/event-stream',
        'x-vercel-ai-ui-message-stream': 'v1',
      },
    },
  );

const reply = (userId: string, assistantId: string, text: string) =>
  uiStream([
    {
      type: 'start',
      messageId: assistantId,
      messageMetadata: {
        user_message_id: userId,
        assistant_message_id: assistantId,
        provider: 'openai',
        model: 'gpt-4.1',
      },
    },
    { type: 'start-step' },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: text },
    { type: 'text-end', id: 't1' },
    { type: 'source-url', sourceId: 's1', url: 'https://example.com/a', title: 'A' },
    { type: 'finish-step' },
    { type: 'finish' },
  ]);

const stored = (id: string, role: Message['role'], content: string): Message => ({
  id,
  conversation_id: conversationId,
  user_id: 'user-1',
  content,
  role,
  provider: 'openai',
  model: null,
  reply_to_id: null,
  sources: [],
  attachments: [],
  status: 'complete',
  error: null,
  version: null,
  created_at: '2026-01-01T00:00:00.000Z',
});

const setup = (history: Message[] = []) => {
  const queryClient = new QueryClient();
  queryClient.setQueryData(messagesQueryKey(conversationId), historyOf(history));
  const fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
  const chat = createConversationChat(liveChatModule, {
    conversationId,
    userId: 'user-1',
    queryClient,
  });
  const sentBody = (call = 0) => JSON.parse(String(fetchMock.mock.calls[call]?.[1]?.body));
  const history_ = () =>
    historyMessages(queryClient.getQueryData<MessageHistory>(messagesQueryKey(conversationId)));
  return { queryClient, fetchMock, chat, sentBody, history: history_ };
};

describe('a conversation in the chat engine', () => {
  it('posts only the new text with the settings, then files the exchange into the history', async () => {
    const { fetchMock, chat, sentBody, history } = setup([stored('u0', 'user', 'Earlier')]);
    fetchMock.mockResolvedValueOnce(reply('u1', 'a1', 'Hello!'));
    await chat.sendMessage({ text: 'Hi' }, { body: body() });

    expect(fetchMock.mock.calls[0]?.[0]).toBe(chatEndpoint);
    expect(sentBody()).toEqual({
      conversation_id: conversationId,
      provider: 'openai',
      model: 'gpt-4.1',
      temperature: 0.7,
      text: 'Hi',
    });
    expect(history()?.map((m) => [m.id, m.role, m.content, m.status])).toEqual([
      ['u0', 'user', 'Earlier', 'complete'],
      ['u1', 'user', 'Hi', 'complete'],
      ['a1', 'assistant', 'Hello!', 'complete'],
    ]);
    expect(history()?.at(-1)?.sources).toEqual([{ url: 'https://example.com/a', title: 'A' }]);
    expect(chat.messages).toEqual([]);
  });

  it('regenerates with the flag alone and replaces the old reply', async () => {
    const user = stored('u1', 'user', 'Question');
    const { fetchMock, chat, sentBody, history } = setup([user]);
    fetchMock.mockResolvedValueOnce(reply('u1', 'a2', 'Second answer'));
    chat.messages = [uiMessageFromStored(user)];
    await chat.regenerate({ body: body() });

    expect(sentBody()).toEqual({
      conversation_id: conversationId,
      provider: 'openai',
      model: 'gpt-4.1',
      temperature: 0.7,
      regenerate: true,
    });
    expect(history()?.map((m) => m.id)).toEqual(['u1', 'a2']);
    // The stored question is kept as it was, not rebuilt from the stream.
    expect(history()?.[0]?.created_at).toBe(user.created_at);
  });

  it('sends edit_of with the new text on edit-and-resend', async () => {
    const { fetchMock, chat, sentBody } = setup();
    fetchMock.mockResolvedValueOnce(reply('u9', 'a9', 'Edited answer'));
    await chat.sendMessage(
      { text: 'Better question' },
      { body: body({ editOf: '5e2b1c1a-7f3d-4c61-8a8e-2f9d3b6c4d21' }) },
    );
    expect(sentBody()).toMatchObject({
      edit_of: '5e2b1c1a-7f3d-4c61-8a8e-2f9d3b6c4d21',
      text: 'Better question',
    });
  });

  it('reports a refusal before the stream with its status and code', async () => {
    const { fetchMock, chat } = setup();
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ error: 'No API key for OpenAI', code: 'keys:missing' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      }),
    );
    // The refused history is read again from the server.
    fetchMock.mockResolvedValue(Response.json({ messages: [], older_cursor: null }));
    await chat.sendMessage({ text: 'Hi' }, { body: body() });
    expect(chat.status).toBe('error');
    expect(isApiError(chat.error)).toBe(true);
    expect(isApiError(chat.error) && chat.error.code).toBe('keys:missing');
  });

  it('files a stopped reply as interrupted with what arrived', async () => {
    const { fetchMock, chat, history } = setup();
    let push: (text: string) => void = () => {};
    fetchMock.mockImplementationOnce(async (_input, init) => {
      const encoder = new TextEncoder();
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (text) => controller.enqueue(encoder.encode(text));
          init?.signal?.addEventListener('abort', () =>
            controller.error(new DOMException('Aborted', 'AbortError')),
          );
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    const sending = chat.sendMessage({ text: 'Tell me a story' }, { body: body() });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const event = (chunk: object) => push(`data: ${JSON.stringify(chunk)}\n\n`);
    event({
      type: 'start',
      messageId: 'a5',
      messageMetadata: { user_message_id: 'u5', assistant_message_id: 'a5', provider: 'openai' },
    });
    event({ type: 'text-start', id: 't' });
    event({ type: 'text-delta', id: 't', delta: 'Once upon' });
    await vi.waitFor(() => expect(chat.status).toBe('streaming'));
    await chat.stop();
    await sending;
    expect(history()?.map((m) => [m.id, m.content, m.status])).toEqual([
      ['u5', 'Tell me a story', 'complete'],
      ['a5', 'Once upon', 'interrupted'],
    ]);
  });
});
