import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagePageSize } from '@chorus/shared/limits';
import { messages as spec } from '@chorus/shared/messages';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import {
  conversations,
  files,
  messages,
  profiles,
  systemApiKeys,
  userApiKeys,
} from '../schema/index.ts';
import { UserApiKeysRepository } from './api-keys.ts';
import {
  conversationTitle,
  ConversationsRepository,
  type ConversationRow,
} from './conversations.ts';
import { FilesRepository, type NewUpload } from './files.ts';
import { MessagesRepository } from './messages.ts';
import { ProfilesRepository } from './profiles.ts';
import { SettingsRepository } from './settings.ts';

let t: TestApp;
let a: string;
let b: string;
beforeAll(async () => {
  t = await startTestApp();
  a = (await t.user('iso-a@example.com', 'correct-horse-1', 'Ann A')).id;
  b = (await t.user('iso-b@example.com', 'correct-horse-1', 'Bob B')).id;
});
afterAll(() => t.close());

const conversationRow = async (id: string) =>
  (await t.db.select().from(conversations).where(eq(conversations.id, id)))[0];

describe('ConversationsRepository', () => {
  it("cannot read, rename or delete another user's conversation", async () => {
    const mine = await new ConversationsRepository(t.db, a).create('Ann private');
    const theirs = new ConversationsRepository(t.db, b);

    expect(await theirs.get(mine.id)).toBeUndefined();
    expect(await theirs.rename(mine.id, 'Taken over')).toBeUndefined();
    expect(await theirs.delete(mine.id)).toBe(false);
    expect(await conversationRow(mine.id)).toEqual(mine);
  });

  it("never lists another user's conversations", async () => {
    const annConversation = await new ConversationsRepository(t.db, a).create('Ann listed');
    const bobs = new ConversationsRepository(t.db, b);
    await bobs.create('Bob listed');
    const listed = await bobs.list({ limit: 1000 });
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((c) => c.user_id === b)).toBe(true);
    expect(listed.map((c) => c.id)).not.toContain(annConversation.id);
  });

  it('pages through all of a user’s conversations newest first without duplicates', async () => {
    const owner = (await t.user('iso-pages@example.com')).id;
    const repo = new ConversationsRepository(t.db, owner);
    // Pairs share a creation time, so the id tie-break is crossed by a page boundary too.
    const start = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 25; i++) {
      const created = await repo.create(`Conversation ${i}`);
      await t.db
        .update(conversations)
        .set({ created_at: new Date(start + Math.floor(i / 2) * 1000) })
        .where(eq(conversations.id, created.id));
    }
    await new ConversationsRepository(t.db, b).create('Noise from Bob');
    const expected = (
      await t.db.select().from(conversations).where(eq(conversations.user_id, owner))
    )
      .sort((x, y) => y.created_at.getTime() - x.created_at.getTime() || (x.id < y.id ? 1 : -1))
      .map((c) => c.id);

    const seen: ConversationRow[] = [];
    const pageSizes: number[] = [];
    let page = await repo.list({ limit: 10 });
    while (page.length > 0) {
      pageSizes.push(page.length);
      seen.push(...page);
      const last = page.at(-1)!;
      page = await repo.list({ limit: 10, after: { created_at: last.created_at, id: last.id } });
    }

    expect(pageSizes).toEqual([10, 10, 5]);
    expect(seen.map((c) => c.id)).toEqual(expected);
    expect(new Set(expected).size).toBe(25);
    expect(seen[0]!.title).toBe('Conversation 24');
  });
});

describe('MessagesRepository', () => {
  it("cannot write into, read or empty another user's conversation", async () => {
    const conversation = await new ConversationsRepository(t.db, a).create('Ann chat');
    const annMessages = new MessagesRepository(t.db, a);
    const written = await annMessages.insert(conversation.id, { role: 'user', content: 'secret' });
    expect(written).toMatchObject({ user_id: a, conversation_id: conversation.id });

    const bobMessages = new MessagesRepository(t.db, b);
    expect(
      await bobMessages.insert(conversation.id, { role: 'user', content: 'hi' }),
    ).toBeUndefined();
    expect(await bobMessages.list(conversation.id)).toEqual([]);
    expect(await bobMessages.deleteForConversation(conversation.id)).toBe(0);

    const remaining = await annMessages.list(conversation.id);
    expect(remaining.map((m) => m.content)).toEqual(['secret']);
  });

  it(`pages ${messagePageSize} messages at a time, oldest first`, async () => {
    const conversation = await new ConversationsRepository(t.db, a).create('Long chat');
    const start = Date.UTC(2025, 0, 1);
    const total = messagePageSize + 5;
    await t.db.insert(messages).values(
      Array.from({ length: total }, (_, i) => ({
        conversation_id: conversation.id,
        user_id: a,
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: `message ${i}`,
        created_at: new Date(start + i * 1000),
      })),
    );
    const repo = new MessagesRepository(t.db, a);

    const first = await repo.list(conversation.id);
    expect(first).toHaveLength(messagePageSize);
    expect(first.map((m) => m.content)).toEqual(
      Array.from({ length: messagePageSize }, (_, i) => `message ${i}`),
    );
    const rest = await repo.list(conversation.id, { offset: messagePageSize });
    expect(rest.map((m) => m.content)).toEqual(
      Array.from({ length: 5 }, (_, i) => `message ${messagePageSize + i}`),
    );
  });

  it('returns messages in the order written, even when their timestamps tie', async () => {
    const conversation = await new ConversationsRepository(t.db, a).create('Same instant');
    const repo = new MessagesRepository(t.db, a);
    const instant = new Date(Date.UTC(2025, 5, 1));
    for (let i = 0; i < 12; i++) {
      await repo.insert(conversation.id, {
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `turn ${i}`,
      });
    }
    await t.db
      .update(messages)
      .set({ created_at: instant })
      .where(eq(messages.conversation_id, conversation.id));
    const listed = await repo.list(conversation.id);
    expect(listed.map((m) => m.content)).toEqual(Array.from({ length: 12 }, (_, i) => `turn ${i}`));
  });

  it('deleting a conversation removes its messages', async () => {
    const convs = new ConversationsRepository(t.db, a);
    const conversation = await convs.create('Doomed chat');
    const repo = new MessagesRepository(t.db, a);
    await repo.insert(conversation.id, { role: 'user', content: 'one' });
    await repo.insert(conversation.id, { role: 'assistant', content: 'two' });

    expect(await convs.delete(conversation.id)).toBe(true);
    const left = await t.db
      .select()
      .from(messages)
      .where(eq(messages.conversation_id, conversation.id));
    expect(left).toEqual([]);
  });
});

describe('FilesRepository', () => {
  const newUpload = (conversationId: string | null = null): NewUpload => {
    const id = randomUUID();
    return {
      id,
      storage_key: `files/${id.slice(0, 2)}/${id}`,
      name: 'report.pdf',
      content_type: 'application/pdf',
      purpose: 'attachment',
      conversation_id: conversationId,
    };
  };
  const quota = { want: 100, exact: true, quota: 1000 };

  it("cannot read, list, complete, delete or attach to another user's files", async () => {
    const anns = new FilesRepository(t.db, a);
    const conversation = await new ConversationsRepository(t.db, a).create('Ann files');
    const reserved = await anns.reserve(newUpload(conversation.id), quota);
    if (!reserved.ok) throw new Error('reservation refused');
    const bobs = new FilesRepository(t.db, b);

    expect(await bobs.complete(reserved.row.id, { size: 1, sha256: 'x' })).toBeUndefined();
    const ready = await anns.complete(reserved.row.id, { size: 90, sha256: 'abc' });
    expect(ready).toMatchObject({ status: 'ready', size_bytes: 90, user_id: a });

    expect(await bobs.get(reserved.row.id)).toBeUndefined();
    expect(await bobs.list({ limit: 100 })).toEqual([]);
    expect(await bobs.list({ limit: 100, conversationId: conversation.id })).toEqual([]);
    expect(await bobs.listForConversation(conversation.id)).toEqual([]);
    expect(await bobs.usedBytes()).toBe(0);
    expect(await bobs.remove(reserved.row.id)).toBe(false);
    expect(await bobs.reserve(newUpload(conversation.id), quota)).toEqual({
      ok: false,
      reason: 'conversation',
    });

    expect(await anns.get(reserved.row.id)).toEqual(ready);
    expect(await t.db.select().from(files).where(eq(files.user_id, b))).toEqual([]);
  });

  it('counts reservations against the quota until completed or removed', async () => {
    const owner = (await t.user('iso-files-quota@example.com')).id;
    const repo = new FilesRepository(t.db, owner);
    const first = await repo.reserve(newUpload(), { want: 600, exact: true, quota: 1000 });
    expect(first).toMatchObject({ ok: true, reserved: 600 });
    expect(await repo.reserve(newUpload(), { want: 500, exact: true, quota: 1000 })).toEqual({
      ok: false,
      reason: 'quota',
      used: 600,
    });
    // Length unknown: as much as is left, up to the per-file limit.
    const second = await repo.reserve(newUpload(), { want: 800, exact: false, quota: 1000 });
    expect(second).toMatchObject({ ok: true, reserved: 400 });
    expect(await repo.reserve(newUpload(), { want: 1, exact: false, quota: 1000 })).toMatchObject({
      ok: false,
      reason: 'quota',
    });
    if (!first.ok || !second.ok) throw new Error('reservation refused');
    await repo.complete(first.row.id, { size: 10, sha256: 'a' });
    await repo.remove(second.row.id);
    expect(await repo.usedBytes()).toBe(10);
    // Reservations are not files yet: they are neither listed nor readable.
    const pending = await repo.reserve(newUpload(), quota);
    if (!pending.ok) throw new Error('reservation refused');
    expect(await repo.get(pending.row.id)).toBeUndefined();
    expect((await repo.list({ limit: 10 })).map((f) => f.id)).toEqual([first.row.id]);
  });
});

describe('SettingsRepository', () => {
  it("never shows or changes another user's settings", async () => {
    await new SettingsRepository(t.db, a).upsert({
      default_ai_provider: 'anthropic',
      default_ai_model: 'ann-model',
    });
    const bobs = new SettingsRepository(t.db, b);
    const bobRow = await bobs.get();
    expect(bobRow?.user_id).toBe(b);
    expect(bobRow?.default_ai_model).not.toBe('ann-model');

    await bobs.upsert({ default_ai_provider: 'openai', default_ai_model: 'bob-model' });
    expect(await new SettingsRepository(t.db, a).get()).toMatchObject({
      user_id: a,
      default_ai_provider: 'anthropic',
      default_ai_model: 'ann-model',
    });
  });
});

describe('UserApiKeysRepository', () => {
  it("never lists or removes another user's keys, and never returns the ciphertext", async () => {
    await t.db.insert(userApiKeys).values({
      user_id: a,
      provider: 'mistral',
      api_key: 'ciphertext-of-ann',
      key_hint: 'sk-…ann1',
    });
    const bobs = new UserApiKeysRepository(t.db, b);
    expect((await bobs.list()).filter((k) => k.user_id === a)).toEqual([]);
    expect(await bobs.remove('mistral')).toBe(false);

    const annKeys = await new UserApiKeysRepository(t.db, a).list();
    expect(annKeys.map((k) => k.provider)).toContain('mistral');
    expect(JSON.stringify(annKeys)).not.toContain('ciphertext-of-ann');
  });
});

describe('UserApiKeysRepository grants', () => {
  it("never shows, uses or changes another user's grants of the admin default keys", async () => {
    await t.db.insert(systemApiKeys).values({
      provider: 'deepseek',
      kind: 'default',
      api_key: 'ciphertext-of-admin',
      key_hint: 'sk-…adm1',
    });
    const anns = new UserApiKeysRepository(t.db, a);
    const bobs = new UserApiKeysRepository(t.db, b);
    expect(await anns.grantDefaultKeys()).toEqual(['deepseek']);

    expect(await bobs.grantedKeys()).toEqual([]);
    expect(await bobs.sealedGrantedKeys(['deepseek'])).toEqual([]);
    expect(await bobs.sealedKeys(['deepseek'])).toEqual([]);
    expect(await bobs.grantDefaultKeys()).toEqual(['deepseek']);
    expect(await anns.grantDefaultKeys()).toEqual([]);

    const annGranted = await anns.grantedKeys();
    expect(annGranted).toEqual([expect.objectContaining({ provider: 'deepseek' })]);
    expect(JSON.stringify(annGranted)).not.toContain('ciphertext-of-admin');
  });
});

describe('ProfilesRepository', () => {
  it("updates only the caller's own profile", async () => {
    const before = (await t.db.select().from(profiles).where(eq(profiles.id, a)))[0];
    const updated = await new ProfilesRepository(t.db, b).update({
      full_name: 'Bob Renamed',
      public_name: 'bob_only',
    });
    expect(updated).toMatchObject({ id: b, full_name: 'Bob Renamed', public_name: 'bob_only' });
    const after = (await t.db.select().from(profiles).where(eq(profiles.id, a)))[0];
    expect(after).toEqual(before);
  });
});

describe('conversationTitle', () => {
  it('uses the spec default when no title is given', () => {
    expect(conversationTitle(undefined)).toBe(spec.chat.defaultTitle);
  });

  it('names an empty or blank title after the time of day', () => {
    for (const blank of ['', '   ']) {
      expect(conversationTitle(blank)).toMatch(/^New Chat /);
    }
    expect(conversationTitle('', new Date(Date.UTC(2025, 0, 1, 13, 5, 9)))).toBe(
      'New Chat 13:05:09',
    );
  });

  it('keeps a given title, trimmed', () => {
    expect(conversationTitle('  Trip plans ')).toBe('Trip plans');
  });
});
