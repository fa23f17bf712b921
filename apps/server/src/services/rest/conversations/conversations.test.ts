import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Conversation,
  ConversationPage,
  Message,
  MessagePage,
} from '@chorus/shared/api/conversations';
import { messages as spec } from '@chorus/shared/messages';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('/rest/v1/conversations', () => {
  it('asks guests to sign in', async () => {
    const guest = t.client();
    const res = await guest.get('/rest/v1/conversations');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: spec.auth.required });
    expect((await guest.post('/rest/v1/conversations', {})).status).toBe(401);
  });

  it('titles new conversations as the spec says', async () => {
    const ann = await t.user('titles@example.com');
    const none = await ann.post<Conversation>('/rest/v1/conversations', {});
    expect(none.status).toBe(201);
    expect(none.body.title).toBe(spec.chat.defaultTitle);
    const empty = await ann.post<Conversation>('/rest/v1/conversations', { title: '  ' });
    expect(empty.body.title).toMatch(/^New Chat \d{2}:\d{2}:\d{2}$/);
    const named = await ann.post<Conversation>('/rest/v1/conversations', { title: ' Trip plans ' });
    expect(named.body.title).toBe('Trip plans');
  });

  it('pages through many conversations newest first with an opaque cursor', async () => {
    const ann = await t.user('pager@example.com');
    for (let i = 0; i < 7; i++) await ann.post('/rest/v1/conversations', { title: `chat ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/rest/v1/conversations?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page: { body: ConversationPage } = await ann.get<ConversationPage>(url);
      seen.push(...page.body.conversations.map((c) => c.title));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['chat 6', 'chat 5', 'chat 4', 'chat 3', 'chat 2', 'chat 1', 'chat 0']);
  });

  it('searches titles, taking wildcards literally', async () => {
    const ann = await t.user('search@example.com');
    await ann.post('/rest/v1/conversations', { title: 'Budget 100%' });
    await ann.post('/rest/v1/conversations', { title: 'Holiday' });
    const hit = await ann.get<ConversationPage>('/rest/v1/conversations?search=budget');
    expect(hit.body.conversations.map((c) => c.title)).toEqual(['Budget 100%']);
    const literal = await ann.get<ConversationPage>('/rest/v1/conversations?search=%25');
    expect(literal.body.conversations.map((c) => c.title)).toEqual(['Budget 100%']);
  });

  it('answers a forged cursor or a bad limit with 400, never 500', async () => {
    const ann = await t.user('forged@example.com');
    for (const q of [
      'cursor=abc',
      'cursor=%00%00',
      `cursor=${Buffer.from('x|y').toString('base64url')}`,
      'limit=0',
      'limit=x',
    ]) {
      expect((await ann.get(`/rest/v1/conversations?${q}`)).status, q).toBe(400);
    }
  });

  it('renames, lists messages of, and deletes one own conversation', async () => {
    const ann = await t.user('owner-flow@example.com');
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'Draft' })).body;
    const renamed = await ann.patch<Conversation>(`/rest/v1/conversations/${conv.id}`, {
      title: 'Final',
    });
    expect(renamed.body.title).toBe('Final');

    const first = await ann.post<Message>(`/rest/v1/conversations/${conv.id}/messages`, {
      content: 'Hello',
      role: 'user',
      provider: 'openai',
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      content: 'Hello',
      sources: [],
      status: 'complete',
      reply_to_id: null,
    });
    await ann.post(`/rest/v1/conversations/${conv.id}/messages`, {
      content: 'Hi there',
      role: 'assistant',
      provider: 'openai',
      reply_to_id: first.body.id,
      sources: [{ url: 'https://example.com/a', title: 'A' }],
    });
    const listed = await ann.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`);
    expect(listed.body.map((m) => m.content)).toEqual(['Hello', 'Hi there']);
    expect(listed.body[1]!.sources).toEqual([{ url: 'https://example.com/a', title: 'A' }]);
    const paged = await ann.get<Message[]>(
      `/rest/v1/conversations/${conv.id}/messages?limit=1&offset=1`,
    );
    expect(paged.body.map((m) => m.content)).toEqual(['Hi there']);
    expect((await ann.get(`/rest/v1/conversations/${conv.id}/messages?limit=201`)).status).toBe(
      400,
    );

    expect((await ann.del(`/rest/v1/conversations/${conv.id}`)).status).toBe(204);
    expect((await ann.get(`/rest/v1/conversations/${conv.id}/messages`)).status).toBe(404);
  });

  it("never lets a second user read, change, write to or delete the first user's conversation", async () => {
    const ann = await t.user('victim@example.com');
    const bob = await t.user('attacker@example.com');
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'Private' }))
      .body;
    await ann.post(`/rest/v1/conversations/${conv.id}/messages`, {
      content: 'secret',
      role: 'user',
    });

    const attempts = [
      await bob.get(`/rest/v1/conversations/${conv.id}/messages`),
      await bob.get(`/rest/v1/conversations/${conv.id}/messages/latest`),
      await bob.patch(`/rest/v1/conversations/${conv.id}`, { title: 'Owned' }),
      await bob.post(`/rest/v1/conversations/${conv.id}/messages`, {
        content: 'injected',
        role: 'user',
      }),
      await bob.del(`/rest/v1/conversations/${conv.id}`),
    ];
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    for (const r of attempts) expect(JSON.stringify(r.body)).not.toContain('secret');
    expect((await bob.get<ConversationPage>('/rest/v1/conversations')).body.conversations).toEqual(
      [],
    );

    const still = await ann.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`);
    expect(still.body.map((m) => m.content)).toEqual(['secret']);
    const list = await ann.get<ConversationPage>('/rest/v1/conversations');
    expect(list.body.conversations.find((c) => c.id === conv.id)?.title).toBe('Private');
  });

  it('opens on the newest page and walks back to the first message with the cursor', async () => {
    const ann = await t.user('newest@example.com');
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
    for (let i = 0; i < 7; i++) {
      await ann.post(`/rest/v1/conversations/${conv.id}/messages`, {
        content: `m${i}`,
        role: i % 2 ? 'assistant' : 'user',
      });
    }
    const pages: string[][] = [];
    let before: string | null = null;
    do {
      const url: string = `/rest/v1/conversations/${conv.id}/messages/latest?limit=3${before ? `&before=${before}` : ''}`;
      const res: { status: number; body: MessagePage } = await ann.get<MessagePage>(url);
      expect(res.status).toBe(200);
      pages.push(res.body.messages.map((m) => m.content));
      before = res.body.older_cursor;
    } while (before);
    expect(pages).toEqual([['m4', 'm5', 'm6'], ['m1', 'm2', 'm3'], ['m0']]);

    const empty = await ann.post<Conversation>('/rest/v1/conversations', {});
    const none = await ann.get<MessagePage>(
      `/rest/v1/conversations/${empty.body.id}/messages/latest`,
    );
    expect(none.body).toEqual({
      messages: [],
      older_cursor: null,
      system_prompt: '',
      knowledge_base_ids: [],
      custom_ai_id: null,
    });
    const forged = await ann.get(
      `/rest/v1/conversations/${conv.id}/messages/latest?before=${Buffer.from('seq:1 or 1=1').toString('base64url')}`,
    );
    expect(forged).toMatchObject({ status: 400, body: { code: 'conversations:bad_cursor' } });
  });

  it('answers malformed ids and bodies with 4xx', async () => {
    const ann = await t.user('malformed@example.com');
    expect((await ann.patch('/rest/v1/conversations/not-a-uuid', { title: 'x' })).status).toBe(404);
    expect((await ann.del("/rest/v1/conversations/1'%20or%201=1")).status).toBe(404);
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
    for (const body of ['{', { title: 5 }, { title: 'x'.repeat(201) }]) {
      expect((await ann.request('PATCH', `/rest/v1/conversations/${conv.id}`, body)).status).toBe(
        400,
      );
    }
    for (const body of [
      { content: 'x', role: 'robot' },
      { role: 'user' },
      { content: 'x', role: 'user', reply_to_id: 'nope' },
    ]) {
      expect((await ann.post(`/rest/v1/conversations/${conv.id}/messages`, body)).status).toBe(400);
    }
  });

  it('limits conversation creation to 20 a minute per user (spec §9)', async () => {
    const ann = await t.user('burst@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await ann.post('/rest/v1/conversations', {})).status);
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
    const other = await t.user('calm@example.com');
    expect((await other.post('/rest/v1/conversations', {})).status).toBe(201);
  });
});
