import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import type { MessageSearchResult } from '@chorus/shared/api/search';
import { messageSearch } from '@chorus/shared/message-search';
import { MessageSearchRepository } from '../../../db/repositories/message-search.ts';
import { messages } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type User = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let ann: User;
let bob: User;
let annChat: Conversation;
let bobChat: Conversation;

const { markStart: open, markEnd: close } = messageSearch;

const say = async (
  user: User,
  conversation: Conversation,
  content: string,
  role: 'user' | 'assistant' = 'user',
) => {
  const res = await user.post<Message>(`/rest/v1/conversations/${conversation.id}/messages`, {
    content,
    role,
  });
  expect(res.status).toBe(201);
  return res.body;
};

const search = (user: User, q: string, extra = '') =>
  user.get<MessageSearchResult>(`/rest/v1/messages/search?q=${encodeURIComponent(q)}${extra}`);

beforeAll(async () => {
  t = await startTestApp();
  ann = await t.user('search-ann@example.com');
  bob = await t.user('search-bob@example.com');
  annChat = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'Trip to Lisbon' }))
    .body;
  bobChat = (await bob.post<Conversation>('/rest/v1/conversations', { title: 'Bob only' })).body;
});
afterAll(() => t.close());

describe('GET /rest/v1/messages/search', () => {
  it('asks guests to sign in', async () => {
    const res = await t.client().get('/rest/v1/messages/search?q=hello');
    expect(res.status).toBe(401);
  });

  it('finds a word inside message text, newest first, with its conversation and a marked snippet', async () => {
    const first = await say(ann, annChat, 'Which museums are open on Monday in Lisbon?');
    const reply = await say(
      ann,
      annChat,
      'Most museums close on Monday, but the Gulbenkian opens its garden.',
      'assistant',
    );
    await say(ann, annChat, 'Thanks, and the trams?');

    const res = await search(ann, 'monday');
    expect(res.status).toBe(200);
    expect(res.body.hits.map((hit) => hit.message_id)).toEqual([reply.id, first.id]);
    const [hit] = res.body.hits;
    expect(hit).toMatchObject({
      conversation_id: annChat.id,
      conversation_title: 'Trip to Lisbon',
      role: 'assistant',
      created_at: reply.created_at,
    });
    expect(hit!.snippet).toContain(`${open}Monday${close}`);
  });

  it('matches words as prefixes, needs every word, and ignores case and punctuation', async () => {
    const both = await say(ann, annChat, 'The aquarium tickets were sold out.');
    await say(ann, annChat, 'An aquarium in the rain.');

    expect((await search(ann, 'aquar')).body.hits).toHaveLength(2);
    const two = await search(ann, 'AQUARIUM, tick!');
    expect(two.body.hits.map((hit) => hit.message_id)).toEqual([both.id]);
    expect(two.body.hits[0]!.snippet).toContain(`${open}aquarium${close}`);
    expect(two.body.hits[0]!.snippet).toContain(`${open}tickets${close}`);
    expect((await search(ann, 'aquarium zebra')).body.hits).toEqual([]);
  });

  it('finds words in other scripts and accents', async () => {
    const greek = await say(ann, annChat, 'Καλημέρα from Athens; Grüße aus Köln; привет мир');
    for (const q of ['καλημέρα', 'grüße', 'KÖLN', 'привет']) {
      const res = await search(ann, q);
      expect(res.status, q).toBe(200);
      expect(
        res.body.hits.map((hit) => hit.message_id),
        q,
      ).toEqual([greek.id]);
    }
    // The same word written with a combining accent (NFD) is found too.
    expect((await search(ann, 'Gru\u0308ße')).body.hits.map((h) => h.message_id)).toEqual([
      greek.id,
    ]);
  });

  it("never lets a second user find the first user's messages", async () => {
    await say(ann, annChat, 'My secret codeword is zanzibarquartz.');
    await say(bob, bobChat, 'Bob writes about zanzibarquartz too.');

    const bobs = await search(bob, 'zanzibarquartz');
    expect(bobs.status).toBe(200);
    expect(bobs.body.hits).toHaveLength(1);
    expect(bobs.body.hits[0]).toMatchObject({
      conversation_id: bobChat.id,
      conversation_title: 'Bob only',
    });
    const anns = await search(ann, 'zanzibarquartz secret');
    expect(anns.body.hits.map((hit) => hit.conversation_id)).toEqual([annChat.id]);
    expect((await search(bob, 'secret codeword')).body.hits).toEqual([]);

    // The repository itself, given the other user's id, sees nothing of Ann's.
    const asBob = new MessageSearchRepository(t.db, bob.id);
    expect(await asBob.search(['secret'], 50)).toEqual([]);
    expect(await asBob.search(['lisbon'], 50)).toEqual([]);
  });

  it('skips replies replaced by a regenerate', async () => {
    const kept = await say(ann, annChat, 'First answer about ostriches.', 'assistant');
    const replaced = await say(ann, annChat, 'Second answer about ostriches.', 'assistant');
    await t.db.update(messages).set({ superseded: true }).where(eq(messages.id, replaced.id));
    const res = await search(ann, 'ostriches');
    expect(res.body.hits.map((hit) => hit.message_id)).toEqual([kept.id]);
  });

  it('keeps the mark characters for the matches only, whatever the text holds', async () => {
    const odd = await say(ann, annChat, `Control ${open}marks${close} around pelican here`);
    const res = await search(ann, 'pelican');
    expect(res.body.hits.map((hit) => hit.message_id)).toEqual([odd.id]);
    expect(res.body.hits[0]!.snippet).toBe(`Control marks around ${open}pelican${close} here`);
  });

  it('answers at most `limit` hits', async () => {
    for (let i = 0; i < 4; i += 1) await say(ann, annChat, `Heron number ${i}`);
    expect((await search(ann, 'heron', '&limit=3')).body.hits).toHaveLength(3);
    expect((await search(ann, 'heron')).body.hits).toHaveLength(4);
  });

  it('answers a query with no words in it with no hits, never an error', async () => {
    await say(ann, annChat, "Odd text: it's a & b | c ! d : e * (f) <-> g \\ h");
    for (const q of [`'&|!:*()`, ':*', '<->', '\\', '!!!', '🙂🙂', "'", '"', '%', '_']) {
      const res = await search(ann, q);
      expect(res.status, q).toBe(200);
      expect(res.body.hits, q).toEqual([]);
    }
  });

  it('takes tsquery syntax and SQL in a query as plain words', async () => {
    const text = await say(
      ann,
      annChat,
      'Drop the table of messages near the window, said the carpenter.',
    );
    for (const q of [
      "carpenter'); drop table messages; --",
      'carpenter & !window',
      'carpenter | zebra',
      'carpenter:* & (window)',
      "carp:*'",
    ]) {
      const res = await search(ann, q);
      expect(res.status, q).toBe(200);
      expect(
        res.body.hits.map((hit) => hit.message_id),
        q,
      ).toEqual(q.includes('zebra') ? [] : [text.id]);
    }
    // The table is still there: nothing in a query ran as SQL.
    const [left] = await t.db.select({ n: sql<number>`count(*)::int` }).from(messages);
    expect(left!.n).toBeGreaterThan(0);
  });

  it('refuses an empty or too long query and a bad limit with a typed 400', async () => {
    const longest = 'a'.repeat(messageSearch.maxQueryLength);
    expect((await search(ann, longest)).status).toBe(200);
    for (const q of [
      '',
      '?limit=5',
      `?q=${'a'.repeat(messageSearch.maxQueryLength + 1)}`,
      '?q=%20%20%20',
      '?q=x&limit=0',
      `?q=x&limit=${messageSearch.maxLimit + 1}`,
      '?q=x&limit=ten',
    ]) {
      const res = await ann.get<{ code: string; error: string }>(`/rest/v1/messages/search${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code, q).toBe('bad_request:validation');
      expect(res.body.error, q).toBeTruthy();
    }
  });

  it('answers text that is not valid with a 4xx, never a 500', async () => {
    for (const q of ['%00', 'a%00b', '%ED%A0%80', '%FF', '%C3']) {
      const res = await ann.get<{ code?: string }>(`/rest/v1/messages/search?q=${q}`);
      expect(res.status, q).toBeLessThan(500);
      if (res.status !== 200) {
        expect(res.status, q).toBeGreaterThanOrEqual(400);
        expect(res.body.code, q).toBeTruthy();
      }
    }
  });
});
