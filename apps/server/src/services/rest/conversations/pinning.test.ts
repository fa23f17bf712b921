import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, ConversationPage } from '@chorus/shared/api/conversations';
import { conversations } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Client = Awaited<ReturnType<TestApp['user']>>;

/** Every conversation of the list, page by page, as the sidebar loads it. */
const walk = async (owner: Client, limit: number, search?: string) => {
  const titles: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(limit) });
    if (cursor) params.set('cursor', cursor);
    if (search) params.set('search', search);
    const page: { status: number; body: ConversationPage } = await owner.get<ConversationPage>(
      `/rest/v1/conversations?${params.toString()}`,
    );
    expect(page.status).toBe(200);
    titles.push(...page.body.conversations.map((c) => c.title));
    pageSizes.push(page.body.conversations.length);
    cursor = page.body.next_cursor;
  } while (cursor);
  return { titles, pageSizes };
};

/** Conversations 'chat 0' … 'chat n-1', one second apart (the newest last). */
const seed = async (owner: Client, n: number, prefix = 'chat') => {
  const start = Date.UTC(2025, 0, 1);
  const made: Conversation[] = [];
  for (let i = 0; i < n; i++) {
    const conv = (
      await owner.post<Conversation>('/rest/v1/conversations', { title: `${prefix} ${i}` })
    ).body;
    await t.db
      .update(conversations)
      .set({ created_at: new Date(start + i * 1000) })
      .where(eq(conversations.id, conv.id));
    made.push(conv);
  }
  return made;
};

const pin = (owner: Client, conv: Conversation, pinned = true) =>
  owner.patch<Conversation>(`/rest/v1/conversations/${conv.id}`, { pinned });

describe('pinned conversations', () => {
  it('head the list, most recently pinned first, on every page size', async () => {
    const ann = await t.user('pin-order@example.com');
    const made = await seed(ann, 7);
    for (const i of [1, 4, 2]) {
      const res = await pin(ann, made[i]!);
      expect(res.status).toBe(200);
      expect(res.body.pinned_at).toEqual(expect.any(String));
      // Distinct pin times, so the order is the order of pinning.
      await new Promise((r) => setTimeout(r, 5));
    }
    const expected = ['chat 2', 'chat 4', 'chat 1', 'chat 6', 'chat 5', 'chat 3', 'chat 0'];
    for (const limit of [1, 2, 3, 4, 50]) {
      expect((await walk(ann, limit)).titles, `limit ${limit}`).toEqual(expected);
    }
    const listed = await ann.get<ConversationPage>('/rest/v1/conversations');
    expect(listed.body.conversations.map((c) => c.pinned_at !== null)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('keeps a pinned conversation in its place when it is pinned again, and puts it back when unpinned', async () => {
    const ann = await t.user('pin-again@example.com');
    const made = await seed(ann, 4);
    const first = await pin(ann, made[0]!);
    await new Promise((r) => setTimeout(r, 5));
    await pin(ann, made[2]!);
    const again = await pin(ann, made[0]!);
    expect(again.body.pinned_at).toBe(first.body.pinned_at);
    expect((await walk(ann, 2)).titles).toEqual(['chat 2', 'chat 0', 'chat 3', 'chat 1']);

    const unpinned = await pin(ann, made[2]!, false);
    expect(unpinned.body.pinned_at).toBeNull();
    expect((await walk(ann, 2)).titles).toEqual(['chat 0', 'chat 3', 'chat 2', 'chat 1']);
  });

  it('pins without renaming or counting as activity, and renames without unpinning', async () => {
    const ann = await t.user('pin-fields@example.com');
    const [conv] = await seed(ann, 1);
    const before = (
      await t.db.select().from(conversations).where(eq(conversations.id, conv!.id))
    )[0]!;
    const pinned = await pin(ann, conv!);
    expect(pinned.body).toMatchObject({
      title: 'chat 0',
      updated_at: before.updated_at.toISOString(),
    });
    const renamed = await ann.patch<Conversation>(`/rest/v1/conversations/${conv!.id}`, {
      title: 'Renamed',
    });
    expect(renamed.body).toMatchObject({ title: 'Renamed', pinned_at: pinned.body.pinned_at });
    const both = await ann.patch<Conversation>(`/rest/v1/conversations/${conv!.id}`, {
      title: 'Both',
      pinned: false,
    });
    expect(both.body).toMatchObject({ title: 'Both', pinned_at: null });
  });

  it('searches pinned and other conversations alike, pinned first', async () => {
    const ann = await t.user('pin-search@example.com');
    const made = await seed(ann, 5, 'budget');
    await seed(ann, 3, 'holiday');
    await pin(ann, made[1]!);
    expect((await walk(ann, 2, 'budget')).titles).toEqual([
      'budget 1',
      'budget 4',
      'budget 3',
      'budget 2',
      'budget 0',
    ]);
    expect((await walk(ann, 2, 'holiday')).titles).toEqual(['holiday 2', 'holiday 1', 'holiday 0']);
  });

  it("lists nothing of another user's pins", async () => {
    const ann = await t.user('pin-ann@example.com');
    const bob = await t.user('pin-bob@example.com');
    const [annConv] = await seed(ann, 1, 'ann');
    await pin(ann, annConv!);
    await seed(bob, 2, 'bob');
    expect((await walk(bob, 1)).titles).toEqual(['bob 1', 'bob 0']);
  });

  it('answers bad bodies and forged cursors with a 400 and its code', async () => {
    const ann = await t.user('pin-bad@example.com');
    const [conv] = await seed(ann, 1);
    for (const body of [{}, { pinned: 'yes' }, { pinned: null }, { title: 5 }, '{']) {
      const res = await ann.request('PATCH', `/rest/v1/conversations/${conv!.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { code: string }).code).toMatch(
        /^(bad_request:validation|request:malformed_json)$/,
      );
    }
    for (const cursor of [
      Buffer.from('pinned|nope|x').toString('base64url'),
      Buffer.from(`pinned|${new Date().toISOString()}|not-an-id`).toString('base64url'),
      Buffer.from('pinned|').toString('base64url'),
    ]) {
      expect(await ann.get(`/rest/v1/conversations?cursor=${cursor}`)).toMatchObject({
        status: 400,
        body: { code: 'conversations:bad_cursor' },
      });
    }
  });
});
