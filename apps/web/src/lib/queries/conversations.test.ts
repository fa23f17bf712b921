import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationPage } from '@chorus/shared/api/conversations';
import { conversationsQueryOptions, placeConversation, prependConversation } from './conversations';

const row = (n: number, pinnedAt: string | null = null): Conversation => ({
  id: `c${n}`,
  title: `Topic ${n}`,
  created_at: `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  updated_at: `2026-01-${String(n).padStart(2, '0')}T00:00:00.000Z`,
  pinned_at: pinnedAt,
  system_prompt: '',
  knowledge_base_ids: [],
  custom_ai_id: null,
});

const pages = (...chunks: [Conversation[], string | null][]) => ({
  pages: chunks.map(([conversations, next_cursor]): ConversationPage => ({
    conversations,
    next_cursor,
  })),
  pageParams: chunks.map((_, index) => (index === 0 ? null : `cursor-${index}`)),
});

const ids = (data: { pages: ConversationPage[] }) =>
  data.pages.map((page) => page.conversations.map((c) => c.id));

describe('placing a conversation as the server lists it', () => {
  it('puts a newly pinned conversation first and keeps every page its length', () => {
    const data = pages([[row(5), row(4)], 'cursor-1'], [[row(3), row(2)], null]);
    const placed = placeConversation(data, row(2, '2026-02-01T00:00:00.000Z'), { insert: false });
    expect(ids(placed)).toEqual([
      ['c2', 'c5'],
      ['c4', 'c3'],
    ]);
    expect(placed.pageParams).toEqual(data.pageParams);
  });

  it('orders pinned conversations by when they were pinned, latest first', () => {
    const data = pages([[row(1, '2026-02-01T00:00:00.000Z'), row(5), row(4)], null]);
    const placed = placeConversation(data, row(4, '2026-02-02T00:00:00.000Z'), { insert: false });
    expect(ids(placed)).toEqual([['c4', 'c1', 'c5']]);
  });

  it('puts an unpinned conversation back among the others, newest first', () => {
    const data = pages([[row(2, '2026-02-01T00:00:00.000Z'), row(5), row(3), row(1)], null]);
    expect(ids(placeConversation(data, row(2), { insert: false }))).toEqual([
      ['c5', 'c3', 'c2', 'c1'],
    ]);
  });

  it('leaves out an unpinned conversation that belongs to a page not loaded yet', () => {
    const data = pages([[row(1, '2026-02-01T00:00:00.000Z'), row(5), row(4)], 'cursor-1']);
    expect(ids(placeConversation(data, row(1), { insert: false }))).toEqual([['c5', 'c4']]);
  });

  it('adds a conversation the list did not hold only when asked to', () => {
    const data = pages([[row(5), row(4)], null]);
    const pinned = row(1, '2026-02-01T00:00:00.000Z');
    expect(placeConversation(data, pinned, { insert: false })).toBe(data);
    expect(ids(placeConversation(data, pinned, { insert: true }))).toEqual([['c1', 'c5', 'c4']]);
  });

  it('puts a new conversation first after the pinned ones', () => {
    const queryClient = new QueryClient();
    const key = conversationsQueryOptions('').queryKey;
    queryClient.setQueryData(key, pages([[row(1, '2026-02-01T00:00:00.000Z'), row(5)], null]));
    prependConversation(queryClient, row(9));
    expect(ids(queryClient.getQueryData(key)!)).toEqual([['c1', 'c9', 'c5']]);
  });
});
