import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import type { AdminCustomAi, CustomAi } from '@chorus/shared/api/custom-ais';
import type { DiscoverItem, DiscoverPage } from '@chorus/shared/api/discover';
import type { KnowledgeBase, KnowledgeDocument } from '@chorus/shared/api/knowledge';
import { customAis, promptUsage } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { waitFor } from '../../../test/streams.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

let t: TestApp;
let admin: Client;
let ann: Client;
let bob: Client;
let carol: Client;
let pirate: CustomAi;

const secret = 'KRAKEN-4471';
// The simulator records a key as Chorus shows one (`sk-…` and its last four characters).
const annKey = 'sk-ann-anthropic-1111';
const bobKey = 'sk-bob-anthropic-2222';
const shown = (key: string) => `sk-…${key.slice(-4)}`;
const question = 'What is the secret harbour code?';

const withAnthropicKey = async (email: string, key: string) => {
  const u = await t.user(email);
  const res = await u.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: key });
  expect(res.status).toBe(200);
  return u;
};

const chat = async (who: Client, body: Record<string, unknown>) => {
  const res = await who.send('POST', '/functions/v1/chat', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ provider: 'openai', ...body }),
  });
  return { status: res.status, text: await res.text() };
};

/** A chat of `who` with the pirate; the simulator's request for it (undefined when refused). */
const chatWithPirate = async (who: Client) => {
  const conv = (await who.post<Conversation>('/rest/v1/conversations', {})).body;
  const asked = t.sim.requests.length;
  const res = await chat(who, {
    conversation_id: conv.id,
    custom_ai_id: pirate.id,
    text: question,
  });
  return { ...res, request: t.sim.requests.slice(asked).at(-1) };
};

const discoverCustomAis = async () =>
  (await t.client().get<DiscoverPage>('/rest/v1/discover?kind=custom_ai')).body.items;

const todaysUses = async (userId: string) =>
  (await t.db.select().from(promptUsage).where(eq(promptUsage.user_id, userId))).reduce(
    (n, row) => n + row.count,
    0,
  );

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  // The first account is the super admin.
  admin = await t.user('share-root@example.com');
  ann = await withAnthropicKey('share-ann@example.com', annKey);
  bob = await withAnthropicKey('share-bob@example.com', bobKey);
  carol = await t.user('share-carol@example.com');

  const base = (await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', { name: 'Log book' }))
    .body;
  const data = new FormData();
  data.append(
    'files',
    new Blob([`The secret harbour code is ${secret}. Tell no landlubber.`], { type: 'text/plain' }),
    'harbour.txt',
  );
  const uploaded = await ann.send('POST', `/rest/v1/knowledge-bases/${base.id}/documents`, {
    body: data,
  });
  expect(uploaded.status).toBe(200);
  await waitFor(async () => {
    const docs = (
      await ann.get<{ documents: KnowledgeDocument[] }>(
        `/rest/v1/knowledge-bases/${base.id}/documents`,
      )
    ).body.documents;
    return docs.length === 1 && docs[0]!.status === 'ready';
  }, 20_000);

  const res = await ann.post<CustomAi>('/rest/v1/custom-ais', {
    name: 'Pirate',
    avatar: '🦜',
    description: 'Talks like a pirate',
    system_prompt: 'Answer as a pirate would. Say arr.',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    starters: ['Where is the treasure?'],
    knowledge_base_ids: [base.id],
  });
  expect(res.status).toBe(201);
  pirate = res.body;
});
afterAll(() => t.close());

describe('sharing a custom AI in /discover', () => {
  it('is private by default: no one else can read it, talk to it or find it', async () => {
    expect(pirate).toMatchObject({
      share_status: 'private',
      share_note: '',
      category: '',
      owned: true,
    });
    expect((await bob.get<Refusal>(`/rest/v1/custom-ais/${pirate.id}`)).status).toBe(404);
    expect((await chatWithPirate(bob)).status).toBe(404);
    expect(await discoverCustomAis()).toEqual([]);
  });

  it('lets only its owner share, unshare, change or delete it', async () => {
    for (const [method, path, body] of [
      ['POST', `/rest/v1/custom-ais/${pirate.id}/share`, { category: 'Fun' }],
      ['DELETE', `/rest/v1/custom-ais/${pirate.id}/share`],
      ['PATCH', `/rest/v1/custom-ais/${pirate.id}`, { name: 'Mine' }],
      ['DELETE', `/rest/v1/custom-ais/${pirate.id}`],
    ] as [string, string, unknown?][]) {
      const res = await bob.request<Refusal>(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('custom_ais:not_found');
    }
    const [row] = await t.db.select().from(customAis).where(eq(customAis.id, pirate.id));
    expect(row).toMatchObject({ name: 'Pirate', share_status: 'private' });
  });

  it('refuses bad share input with typed 4xx errors', async () => {
    for (const body of [{}, { category: '' }, { category: 'x'.repeat(61) }, { category: 7 }]) {
      const res = await ann.post<Refusal>(`/rest/v1/custom-ais/${pirate.id}/share`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
    const unknown = await ann.post<Refusal>(
      '/rest/v1/custom-ais/00000000-0000-4000-8000-000000000000/share',
      { category: 'Fun' },
    );
    expect(unknown.status).toBe(404);
    expect(
      (await ann.post<Refusal>('/rest/v1/custom-ais/nope/share', { category: 'Fun' })).status,
    ).toBe(404);
  });

  it('waits for review once shared, still out of /discover', async () => {
    const shared = await ann.post<CustomAi>(`/rest/v1/custom-ais/${pirate.id}/share`, {
      category: ' Fun ',
    });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ share_status: 'submitted', category: 'Fun', owned: true });
    expect(await discoverCustomAis()).toEqual([]);
    expect((await bob.get(`/rest/v1/custom-ais/${pirate.id}`)).status).toBe(404);
  });

  it('appears in /discover once an admin publishes it, with no trace of its author', async () => {
    const published = await admin.post<AdminCustomAi>(
      `/rest/v1/admin/custom-ais/${pirate.id}/publish`,
      { featured: true },
    );
    expect(published.status).toBe(200);
    const items = await discoverCustomAis();
    expect(items).toEqual([
      {
        kind: 'custom_ai',
        id: pirate.id,
        title: 'Pirate',
        description: 'Talks like a pirate',
        category: 'Fun',
        tags: [],
        preview: 'Answer as a pirate would. Say arr.',
        featured: true,
        uses: null,
        avatar: '🦜',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      } satisfies DiscoverItem,
    ]);
    const all = (await t.client().get<DiscoverPage>('/rest/v1/discover?search=pirate')).body;
    expect(all.items.map((i) => i.id)).toContain(pirate.id);
    expect(all.categories).toContain('Fun');
    const text = JSON.stringify(all);
    for (const hidden of [ann.id, 'share-ann@example.com', ...pirate.knowledge_base_ids]) {
      expect(text).not.toContain(hidden);
    }
    // Published already: sharing again changes nothing.
    const again = await ann.post<Refusal>(`/rest/v1/custom-ais/${pirate.id}/share`, {
      category: 'Other',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('custom_ais:already_published');
  });

  it('reads as public to anyone else: its instructions, never its knowledge bases', async () => {
    const seen = await bob.get<CustomAi>(`/rest/v1/custom-ais/${pirate.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      id: pirate.id,
      system_prompt: 'Answer as a pirate would. Say arr.',
      knowledge_base_ids: [],
      share_status: 'published',
      share_note: '',
      owned: false,
    });
    // His list stays his own.
    expect(
      (await bob.get<{ custom_ais: CustomAi[] }>('/rest/v1/custom-ais')).body.custom_ais,
    ).toEqual([]);
  });

  it('answers another user on his own key and quota, without searching its author’s knowledge', async () => {
    const bobUsesBefore = await todaysUses(bob.id);
    const annUsesBefore = await todaysUses(ann.id);
    const conv = (await bob.post<Conversation>('/rest/v1/conversations', {})).body;
    const set = await bob.patch<Conversation>(`/rest/v1/conversations/${conv.id}`, {
      custom_ai_id: pirate.id,
    });
    expect(set.status).toBe(200);
    expect(set.body.custom_ai_id).toBe(pirate.id);

    const asked = t.sim.requests.length;
    const res = await chat(bob, {
      conversation_id: conv.id,
      custom_ai_id: pirate.id,
      text: question,
    });
    expect(res.status).toBe(200);
    const calls = t.sim.requests.slice(asked);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.headers['x-api-key']).toBe(shown(bobKey));
    }
    const request = calls.at(-1)!;
    expect(request.provider).toBe('anthropic');
    const system = JSON.stringify((request.body as { system: unknown }).system);
    expect(system).toContain('Answer as a pirate would');
    expect(system).not.toContain(secret);
    expect(system).not.toContain('<documents>');
    expect(res.text).not.toContain(secret);
    expect(await todaysUses(bob.id)).toBe(bobUsesBefore + 1);
    expect(await todaysUses(ann.id)).toBe(annUsesBefore);
  });

  it('never falls back on its author’s key for someone who has none', async () => {
    const res = await chatWithPirate(carol);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.request).toBeUndefined();
  });

  it('still searches its knowledge bases for its owner', async () => {
    const res = await chatWithPirate(ann);
    expect(res.status).toBe(200);
    expect(res.request?.headers['x-api-key']).toBe(shown(annKey));
    expect(JSON.stringify((res.request!.body as { system: unknown }).system)).toContain(secret);
  });

  it('stays published when only its knowledge bases change', async () => {
    const res = await ann.patch<CustomAi>(`/rest/v1/custom-ais/${pirate.id}`, {
      knowledge_base_ids: [],
      name: 'Pirate',
    });
    expect(res.status).toBe(200);
    expect(res.body.share_status).toBe('published');
    expect((await discoverCustomAis()).map((i) => i.id)).toEqual([pirate.id]);
  });

  it('goes back for review, out of /discover, when its owner changes what others see', async () => {
    const res = await ann.patch<CustomAi>(`/rest/v1/custom-ais/${pirate.id}`, {
      system_prompt: 'Answer as a sneaky pirate would.',
    });
    expect(res.status).toBe(200);
    expect(res.body.share_status).toBe('submitted');
    expect(await discoverCustomAis()).toEqual([]);
    expect((await bob.get(`/rest/v1/custom-ais/${pirate.id}`)).status).toBe(404);
    expect((await chatWithPirate(bob)).status).toBe(404);
    const [row] = await t.db
      .select()
      .from(customAis)
      .where(and(eq(customAis.id, pirate.id), eq(customAis.featured, false)));
    expect(row?.published_at).toBeNull();
  });

  it('tells its owner why an admin did not publish it, and goes private when unshared', async () => {
    const rejected = await admin.post<AdminCustomAi>(
      `/rest/v1/admin/custom-ais/${pirate.id}/reject`,
      { note: 'Too sneaky. Make it honest.' },
    );
    expect(rejected.status).toBe(200);
    const mine = await ann.get<CustomAi>(`/rest/v1/custom-ais/${pirate.id}`);
    expect(mine.body).toMatchObject({
      share_status: 'rejected',
      share_note: 'Too sneaky. Make it honest.',
    });
    const unshared = await ann.del<CustomAi>(`/rest/v1/custom-ais/${pirate.id}/share`);
    expect(unshared.status).toBe(200);
    expect(unshared.body).toMatchObject({ share_status: 'private', share_note: '' });
    const publish = await admin.post<Refusal>(`/rest/v1/admin/custom-ais/${pirate.id}/publish`, {});
    expect(publish.status).toBe(404);
    expect(publish.body.code).toBe('custom_ais:not_shared');
    expect(await discoverCustomAis()).toEqual([]);
  });
});
