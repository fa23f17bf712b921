import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conversationExportSchema,
  sharedConversationSchema,
  type ShareCreated,
  type SharedConversation,
  type ShareStatus,
} from '@chorus/shared/api/conversation-sharing';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import { sharedChatViewLimit } from '@chorus/shared/limits';
import { messages as spec, storageMessages } from '@chorus/shared/messages';
import { shareMessages } from '@chorus/shared/share-messages';
import { conversations, conversationShares, messages, profiles } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Client = Awaited<ReturnType<TestApp['user']>>;

const startConversation = async (owner: Client, title: string) =>
  (await owner.post<Conversation>('/rest/v1/conversations', { title })).body;

const say = async (
  owner: Client,
  conversationId: string,
  content: string,
  role: 'user' | 'assistant' = 'user',
) =>
  (
    await owner.post<Message>(`/rest/v1/conversations/${conversationId}/messages`, {
      content,
      role,
      provider: 'openai',
    })
  ).body;

/** A message written as the chat writes it, with what the API cannot set. */
const store = (owner: Client, conversationId: string, row: Partial<typeof messages.$inferInsert>) =>
  t.db.insert(messages).values({
    conversation_id: conversationId,
    user_id: owner.id,
    role: 'assistant',
    content: '',
    provider: 'openai',
    model: 'gpt-5-mini',
    ...row,
  });

/** A conversation with a system prompt, a replaced answer, a failed and a cut-off reply. */
const richConversation = async (owner: Client) => {
  const conv = await startConversation(owner, 'Trip: "Lisbon" / Porto?');
  await t.db
    .update(conversations)
    .set({ system_prompt: 'Answer as a travel agent.' })
    .where(eq(conversations.id, conv.id));
  await say(owner, conv.id, 'Plan **two days** in Lisbon');
  await store(owner, conv.id, { content: 'An answer that was regenerated', superseded: true });
  await store(owner, conv.id, { content: '## Day 1\n\n- Alfama\n- Belém', model: 'gpt-5' });
  await say(owner, conv.id, 'And Porto?');
  await store(owner, conv.id, {
    content: '',
    status: 'error',
    error_code: 'provider:failed',
    error_message: 'OpenAI could not answer: the key was refused.',
  });
  await say(owner, conv.id, 'Try once more');
  await store(owner, conv.id, { content: 'Porto in one day: Ribei', status: 'interrupted' });
  await store(owner, conv.id, { content: 'A reply still streaming', status: 'streaming' });
  return conv;
};

const download = async (client: Client, url: string) => {
  const res = await client.send('GET', url);
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe('exporting a conversation', () => {
  it('downloads Markdown with the title, system prompt and every current message oldest first', async () => {
    const ann = await t.user('export-md@example.com');
    const conv = await richConversation(ann);
    const res = await download(ann, `/rest/v1/conversations/${conv.id}/export?format=markdown`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Trip Lisbon Porto.md"; filename*=UTF-8''Trip%20Lisbon%20Porto.md`,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');

    const md = res.text;
    expect(md.startsWith('# Trip: "Lisbon" / Porto?\n')).toBe(true);
    expect(md).toMatch(/Exported from Chorus on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(md).toContain('## System prompt\n\nAnswer as a travel agent.');
    const order = [
      'Plan **two days** in Lisbon',
      '## Day 1\n\n- Alfama\n- Belém',
      'And Porto?',
      '**The reply failed:** OpenAI could not answer: the key was refused.',
      'Try once more',
      'Porto in one day: Ribei',
      '_The reply was cut off here._',
      'A reply still streaming',
    ].map((text) => md.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((x, y) => x - y)).toEqual(order);
    expect(md).toContain('### Assistant · OpenAI · gpt-5\n');
    expect(md).toContain('### You\n');
    expect(md).not.toContain('An answer that was regenerated');
  });

  it('downloads JSON in the documented, versioned shape', async () => {
    const ann = await t.user('export-json@example.com');
    const conv = await richConversation(ann);
    const res = await download(ann, `/rest/v1/conversations/${conv.id}/export?format=json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/filename="Trip Lisbon Porto\.json"/);
    const exported = conversationExportSchema.parse(JSON.parse(res.text));
    expect(exported).toMatchObject({
      format: 'chorus.conversation',
      version: 1,
      conversation: {
        id: conv.id,
        title: 'Trip: "Lisbon" / Porto?',
        system_prompt: 'Answer as a travel agent.',
        pinned_at: null,
      },
    });
    expect(exported.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
      ['user', 'complete'],
      ['assistant', 'error'],
      ['user', 'complete'],
      ['assistant', 'interrupted'],
      ['assistant', 'streaming'],
    ]);
    expect(exported.messages[1]).toMatchObject({
      content: '## Day 1\n\n- Alfama\n- Belém',
      provider: 'openai',
      model: 'gpt-5',
      error: null,
    });
    expect(exported.messages[3]!.error).toEqual({
      code: 'provider:failed',
      message: 'OpenAI could not answer: the key was refused.',
    });
    expect(res.text).not.toContain('regenerated');
    expect(res.text).not.toContain(ann.id);
  });

  it('exports an empty conversation as a valid file of each format', async () => {
    const ann = await t.user('export-empty@example.com');
    const conv = await startConversation(ann, '');
    const json = await download(ann, `/rest/v1/conversations/${conv.id}/export?format=json`);
    expect(conversationExportSchema.parse(JSON.parse(json.text)).messages).toEqual([]);
    const md = await download(ann, `/rest/v1/conversations/${conv.id}/export`);
    expect(md.status).toBe(200);
    expect(md.text).toContain('_This conversation has no messages._');
    expect(md.headers.get('content-disposition')).toMatch(/filename="New Chat \d\d \d\d \d\d\.md"/);
  });

  it('exports 2,000 messages whole and in order', async () => {
    const ann = await t.user('export-long@example.com');
    const conv = await startConversation(ann, 'Long');
    await t.db.insert(messages).values(
      Array.from({ length: 2_000 }, (_, i) => ({
        conversation_id: conv.id,
        user_id: ann.id,
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: `message ${i} ${'x'.repeat(200)}`,
      })),
    );
    const started = performance.now();
    const json = await download(ann, `/rest/v1/conversations/${conv.id}/export?format=json`);
    const exported = conversationExportSchema.parse(JSON.parse(json.text));
    expect(exported.messages).toHaveLength(2_000);
    expect(exported.messages.map((m) => m.content.split(' ')[1])).toEqual(
      Array.from({ length: 2_000 }, (_, i) => String(i)),
    );
    const md = await download(ann, `/rest/v1/conversations/${conv.id}/export?format=markdown`);
    expect(md.text.match(/^### /gm)).toHaveLength(2_000);
    expect(md.text.indexOf('message 1999 ')).toBeGreaterThan(md.text.indexOf('message 1998 '));
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('answers an unknown format with a 400 and its code', async () => {
    const ann = await t.user('export-format@example.com');
    const conv = await startConversation(ann, 'Formats');
    const res = await ann.get(`/rest/v1/conversations/${conv.id}/export?format=pdf`);
    expect(res).toMatchObject({ status: 400, body: { code: 'bad_request:validation' } });
  });
});

describe('sharing a conversation', () => {
  it('shares a read-only snapshot that shows the messages and nothing private', async () => {
    const ann = await t.user('share-owner@example.com', 'correct-horse-1', 'Annabel Private');
    const conv = await richConversation(ann);
    const created = await ann.post<ShareCreated>(`/rest/v1/conversations/${conv.id}/share`);
    expect(created.status).toBe(201);
    const { token, url } = created.body;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(url).toBe(`${t.config.appUrl}/share/${token}`);
    expect(created.body.message_count).toBe(5);

    // Only the token's SHA-256 is kept.
    const [stored] = await t.db
      .select()
      .from(conversationShares)
      .where(eq(conversationShares.conversation_id, conv.id));
    expect(stored!.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    await say(ann, conv.id, 'Written after sharing');

    const guest = t.client();
    const shared = await guest.get<SharedConversation>(`/rest/v1/shared/${token}`);
    expect(shared.status).toBe(200);
    expect(shared.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(sharedConversationSchema.strict().parse(shared.body)).toBeTruthy();
    expect(shared.body.title).toBe('Trip: "Lisbon" / Porto?');
    expect(shared.body.messages.map((m) => [m.role, m.status, m.content])).toEqual([
      ['user', 'complete', 'Plan **two days** in Lisbon'],
      ['assistant', 'complete', '## Day 1\n\n- Alfama\n- Belém'],
      ['user', 'complete', 'And Porto?'],
      ['user', 'complete', 'Try once more'],
      ['assistant', 'interrupted', 'Porto in one day: Ribei'],
    ]);
    for (const m of shared.body.messages) {
      expect(Object.keys(m).sort()).toEqual(
        ['content', 'created_at', 'model', 'provider', 'role', 'status'].sort(),
      );
    }
    const text = JSON.stringify(shared.body);
    for (const secret of [
      ann.id,
      ann.email,
      'Annabel',
      conv.id,
      'Answer as a travel agent',
      'regenerated',
      'the key was refused',
      'still streaming',
      'Written after sharing',
    ]) {
      expect(text).not.toContain(secret);
    }

    const status = await ann.get<ShareStatus>(`/rest/v1/conversations/${conv.id}/share`);
    expect(status.body).toEqual({
      active: true,
      created_at: created.body.created_at,
      message_count: 5,
    });
    expect(JSON.stringify(status.body)).not.toContain(token);
  });

  it('replaces the active link with a new one, and stops it when revoked', async () => {
    const ann = await t.user('share-revoke@example.com');
    const conv = await startConversation(ann, 'Revocable');
    await say(ann, conv.id, 'Hello');
    const first = (await ann.post<ShareCreated>(`/rest/v1/conversations/${conv.id}/share`)).body;
    const second = (await ann.post<ShareCreated>(`/rest/v1/conversations/${conv.id}/share`)).body;
    expect(second.token).not.toBe(first.token);

    const guest = t.client();
    const gone = await guest.get(`/rest/v1/shared/${first.token}`);
    expect(gone).toMatchObject({
      status: 404,
      body: { code: 'shares:not_found', error: shareMessages.unavailable },
    });
    expect((await guest.get(`/rest/v1/shared/${second.token}`)).status).toBe(200);

    expect((await ann.del(`/rest/v1/conversations/${conv.id}/share`)).status).toBe(204);
    expect(await guest.get(`/rest/v1/shared/${second.token}`)).toMatchObject({
      status: 404,
      body: { code: 'shares:not_found', error: shareMessages.unavailable },
    });
    expect((await ann.get<ShareStatus>(`/rest/v1/conversations/${conv.id}/share`)).body).toEqual({
      active: false,
    });
    // Stopping what is already stopped is no error.
    expect((await ann.del(`/rest/v1/conversations/${conv.id}/share`)).status).toBe(204);
  });

  it('stops every link of a deleted conversation and of a suspended account', async () => {
    const ann = await t.user('share-gone@example.com');
    const guest = t.client();
    const deleted = await startConversation(ann, 'Deleted later');
    await say(ann, deleted.id, 'Hello');
    const deletedLink = (await ann.post<ShareCreated>(`/rest/v1/conversations/${deleted.id}/share`))
      .body;
    expect((await ann.del(`/rest/v1/conversations/${deleted.id}`)).status).toBe(204);
    expect((await guest.get(`/rest/v1/shared/${deletedLink.token}`)).status).toBe(404);

    const kept = await startConversation(ann, 'Kept');
    await say(ann, kept.id, 'Hello');
    const link = (await ann.post<ShareCreated>(`/rest/v1/conversations/${kept.id}/share`)).body;
    await t.db.update(profiles).set({ suspended_at: new Date() }).where(eq(profiles.id, ann.id));
    expect((await guest.get(`/rest/v1/shared/${link.token}`)).status).toBe(404);
    await t.db.update(profiles).set({ suspended_at: null }).where(eq(profiles.id, ann.id));
    expect((await guest.get(`/rest/v1/shared/${link.token}`)).status).toBe(200);
  });

  it('refuses to share a conversation with nothing finished in it', async () => {
    const ann = await t.user('share-empty@example.com');
    const conv = await startConversation(ann, 'Empty');
    const res = await ann.post(`/rest/v1/conversations/${conv.id}/share`);
    expect(res).toMatchObject({
      status: 409,
      body: { code: 'shares:nothing_to_share', error: shareMessages.nothingToShare },
    });
    expect((await ann.get<ShareStatus>(`/rest/v1/conversations/${conv.id}/share`)).body).toEqual({
      active: false,
    });
  });

  it('answers a malformed or unknown token like a revoked one', async () => {
    const guest = t.client();
    for (const token of ['x', 'a'.repeat(43), "1'%20or%201=1", 'b'.repeat(200)]) {
      expect(await guest.get(`/rest/v1/shared/${token}`), token).toMatchObject({
        status: 404,
        body: { code: 'shares:not_found', error: shareMessages.unavailable },
      });
    }
    expect((await guest.get(`/rest/v1/shared/${'c'.repeat(201)}`)).status).toBe(400);
  });

  it('limits how often one address opens shared chats', async () => {
    const guest = t.client();
    const statuses: number[] = [];
    for (let i = 0; i <= sharedChatViewLimit.points; i++) {
      statuses.push((await guest.get(`/rest/v1/shared/${'d'.repeat(43)}`)).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("another person's conversation", () => {
  it('cannot be exported, shared, looked at, revoked or pinned by a second user', async () => {
    const ann = await t.user('share-victim@example.com');
    const bob = await t.user('share-attacker@example.com');
    const conv = await startConversation(ann, 'Secret plans');
    await say(ann, conv.id, 'secret words');
    const link = (await ann.post<ShareCreated>(`/rest/v1/conversations/${conv.id}/share`)).body;

    const attempts = [
      await bob.get(`/rest/v1/conversations/${conv.id}/export?format=markdown`),
      await bob.get(`/rest/v1/conversations/${conv.id}/export?format=json`),
      await bob.post(`/rest/v1/conversations/${conv.id}/share`),
      await bob.get(`/rest/v1/conversations/${conv.id}/share`),
      await bob.del(`/rest/v1/conversations/${conv.id}/share`),
      await bob.patch(`/rest/v1/conversations/${conv.id}`, { pinned: true }),
      await bob.patch(`/rest/v1/conversations/${conv.id}`, { title: 'Mine', pinned: false }),
    ];
    for (const res of attempts) {
      expect(res).toMatchObject({
        status: 404,
        body: { code: 'conversations:not_found', error: storageMessages.conversationNotFound },
      });
      expect(JSON.stringify(res.body)).not.toMatch(/secret|Secret/);
    }
    // A missing conversation answers exactly the same.
    const missing = await bob.post(`/rest/v1/conversations/${crypto.randomUUID()}/share`);
    expect(missing.body).toEqual(attempts[2]!.body);

    // Ann's link and conversation are as they were.
    expect((await t.client().get(`/rest/v1/shared/${link.token}`)).status).toBe(200);
    const [row] = await t.db.select().from(conversations).where(eq(conversations.id, conv.id));
    expect(row).toMatchObject({ title: 'Secret plans', pinned_at: null });
    const shares = await t.db
      .select()
      .from(conversationShares)
      .where(eq(conversationShares.conversation_id, conv.id));
    expect(shares).toHaveLength(1);
  });

  it('asks guests to sign in on every owner endpoint', async () => {
    const ann = await t.user('share-guest@example.com');
    const conv = await startConversation(ann, 'Mine');
    const guest = t.client();
    const attempts = [
      await guest.get(`/rest/v1/conversations/${conv.id}/export`),
      await guest.post(`/rest/v1/conversations/${conv.id}/share`),
      await guest.get(`/rest/v1/conversations/${conv.id}/share`),
      await guest.del(`/rest/v1/conversations/${conv.id}/share`),
      await guest.patch(`/rest/v1/conversations/${conv.id}`, { pinned: true }),
    ];
    for (const res of attempts) {
      expect(res).toMatchObject({
        status: 401,
        body: { code: 'auth:required', error: spec.auth.required },
      });
    }
  });

  it('answers malformed conversation ids with 404, never 500', async () => {
    const ann = await t.user('share-malformed@example.com');
    for (const id of ['not-a-uuid', "1'%20or%201=1", 'x'.repeat(100)]) {
      for (const res of [
        await ann.get(`/rest/v1/conversations/${id}/export`),
        await ann.post(`/rest/v1/conversations/${id}/share`),
        await ann.get(`/rest/v1/conversations/${id}/share`),
        await ann.del(`/rest/v1/conversations/${id}/share`),
      ]) {
        expect(res, id).toMatchObject({ status: 404, body: { code: 'conversations:not_found' } });
      }
    }
  });
});
