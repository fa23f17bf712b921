import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Message } from '@chorus/shared/api/conversations';
import {
  appendToHistory,
  historyMessages,
  messagesQueryKey,
  truncateHistory,
  type MessageHistory,
} from './messages';

const id = 'c1';
const message = (n: number, role: Message['role'] = n % 2 ? 'assistant' : 'user'): Message => ({
  id: `m${n}`,
  conversation_id: id,
  user_id: 'u',
  content: `text ${n}`,
  role,
  provider: null,
  model: null,
  reply_to_id: null,
  sources: [],
  attachments: [],
  status: 'complete',
  error: null,
  version: null,
  created_at: '2026-01-01T00:00:00.000Z',
});

/** Newest page first, as the infinite query holds them: m4..m5 newest, m0..m3 older. */
const twoPages = (): MessageHistory => ({
  pages: [
    { messages: [message(4), message(5)], older_cursor: 'before-4' },
    { messages: [message(0), message(1), message(2), message(3)], older_cursor: null },
  ],
  pageParams: [null, 'before-4'],
});

const setup = () => {
  const queryClient = new QueryClient();
  queryClient.setQueryData(messagesQueryKey(id), twoPages());
  const read = () => queryClient.getQueryData<MessageHistory>(messagesQueryKey(id))!;
  return { queryClient, read };
};

describe('a conversation history loaded newest first', () => {
  it('reads oldest first across pages', () => {
    expect(historyMessages(twoPages()).map((m) => m.id)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
    ]);
  });

  it('adds a finished exchange to the newest page and takes the final copy of its reply', () => {
    const { queryClient, read } = setup();
    const reply = { ...message(7), content: 'final', status: 'interrupted' as const };
    appendToHistory(queryClient, id, [message(6), { ...message(7), content: 'draft' }]);
    appendToHistory(queryClient, id, [message(6), reply]);
    expect(historyMessages(read()).map((m) => m.id)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
    expect(historyMessages(read()).at(-1)).toMatchObject({
      content: 'final',
      status: 'interrupted',
      error: null,
      version: null,
    });
    expect(read().pages[1]!.messages).toHaveLength(4);
  });

  it('drops what a regenerate or an edit replaces, even from an older page', () => {
    const regen = setup();
    truncateHistory(regen.queryClient, id, 'm4', false);
    expect(historyMessages(regen.read()).map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);

    const edit = setup();
    truncateHistory(edit.queryClient, id, 'm2', true);
    expect(historyMessages(edit.read()).map((m) => m.id)).toEqual(['m0', 'm1']);
    // The page that held the message is the newest now, fetched from the end on a refetch.
    expect(edit.read().pageParams).toEqual([null]);
    expect(edit.read().pages[0]!.older_cursor).toBeNull();
  });
});
