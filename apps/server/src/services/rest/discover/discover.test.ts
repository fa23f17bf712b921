import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discoverItemSchema,
  discoverPageSchema,
  type DiscoverItem,
  type DiscoverPage,
} from '@chorus/shared/api/discover';
import { messageFor } from '@chorus/shared/error-catalogue';
import { libraryUses, prompts, scenarios } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;

let t: TestApp;
let author: Client;
/** People who use entries: library_uses rows need real users. */
let people: Client[];

beforeAll(async () => {
  t = await startTestApp();
  author = await t.user('discover-author@example.com');
  people = [];
  for (let i = 0; i < 6; i++) people.push(await t.user(`discover-user-${i}@example.com`));
});
afterAll(() => t.close());

const guest = () => t.client();

const discover = async (query = '', as = guest()) => {
  const res = await as.get<DiscoverPage>(`/rest/v1/discover${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return discoverPageSchema.parse(res.body);
};

const addPrompt = async (values: Partial<typeof prompts.$inferInsert> & { title: string }) => {
  const [row] = await t.db
    .insert(prompts)
    .values({ content: `${values.title} text`, user_id: author.id, published: true, ...values })
    .returning();
  return row!;
};

const addScenario = async (values: Partial<typeof scenarios.$inferInsert> & { title: string }) => {
  const [row] = await t.db
    .insert(scenarios)
    .values({ user_id: author.id, published: true, ...values })
    .returning();
  return row!;
};

/** `n` distinct people used the entry, `daysAgo` days ago. */
const use = async (
  kind: 'prompt' | 'scenario',
  itemId: string,
  n: number,
  action: 'copy' | 'run' = 'copy',
  daysAgo = 1,
) => {
  if (n === 0) return;
  await t.db.insert(libraryUses).values(
    people.slice(0, n).map((p) => ({
      kind,
      item_id: itemId,
      user_id: p.id,
      action,
      created_at: new Date(Date.now() - daysAgo * 86_400_000),
    })),
  );
};

/** Every page from the first, `limit` at a time, checking each cursor leads on. */
const allPages = async (query: string, limit: number) => {
  const seen: DiscoverItem[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const page = await discover(
      `${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(page.items.length).toBeLessThanOrEqual(limit);
    seen.push(...page.items);
    cursor = page.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error('paging never ended');
};

describe('GET /rest/v1/discover', () => {
  it('lists only published prompts and cookbook scenarios, signed out, without anything private', async () => {
    const pub = await addPrompt({
      title: 'Visible otter prompt',
      description: 'About otters',
      category: 'Animals',
      tags: ['otters'],
      content: 'Tell me about otters.',
      featured: true,
    });
    const cookbook = await addScenario({
      title: 'Visible otter scenario',
      category: 'Animals',
      steps: ['Describe an otter.', 'Now a beaver.'],
    });
    const shared = await addPrompt({
      title: 'Submitted otter prompt',
      published: false,
      is_public: true,
    });
    const mine = await addPrompt({ title: 'Private otter prompt', published: false });
    const draft = await addScenario({ title: 'Private otter scenario', published: false });

    const page = await discover('?search=otter');
    const ids = page.items.map((i) => i.id);
    expect(ids).toContain(pub.id);
    expect(ids).toContain(cookbook.id);
    for (const hidden of [shared, mine, draft]) expect(ids).not.toContain(hidden.id);

    expect(page.items.find((i) => i.id === pub.id)).toEqual({
      kind: 'prompt',
      id: pub.id,
      title: 'Visible otter prompt',
      description: 'About otters',
      category: 'Animals',
      tags: ['otters'],
      preview: 'Tell me about otters.',
      featured: true,
      uses: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(page.items.find((i) => i.id === cookbook.id)).toMatchObject({
      kind: 'scenario',
      tags: [],
      // An entry from before scenarios had a prompt: its steps are its text.
      preview: 'Describe an otter.\n\nNow a beaver.',
      featured: false,
    });

    const keys = Object.keys(discoverItemSchema.shape).sort();
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(keys);
    const text = JSON.stringify(page);
    expect(text).not.toContain(author.id);
    expect(text).not.toContain(author.email);
    expect(text).not.toMatch(/user_id|email|is_public|published/);

    // Signed in, the same directory.
    expect((await discover('?search=otter', people[0])).items).toEqual(page.items);
  });

  it('filters by words, kind, category and tag, and lists every public category and tag', async () => {
    const haiku = await addPrompt({
      title: 'Haiku helper',
      category: 'Writing',
      tags: ['poetry', 'Japanese'],
      content: 'Write a haiku about {{topic}}.',
    });
    const sonnet = await addPrompt({
      title: 'Sonnet sketch',
      description: 'Fourteen lines of zebrafish',
      category: 'Writing',
      tags: ['poetry'],
    });
    const tagged = await addPrompt({ title: 'Plain', category: 'Misc', tags: ['quokka-tag'] });
    const review = await addScenario({
      title: 'Review code',
      category: 'Engineering',
      user_prompt: 'Review this pull request for narwhal bugs.',
    });
    await addPrompt({
      title: 'Hidden poetry',
      category: 'Secret',
      tags: ['secret-tag'],
      published: false,
    });

    const ids = async (query: string) => (await discover(query)).items.map((i) => i.id).sort();
    expect(await ids('?search=haiku')).toEqual([haiku.id]);
    expect(await ids('?search=ZEBRAFISH')).toEqual([sonnet.id]);
    expect(await ids('?search=quokka')).toEqual([tagged.id]);
    expect(await ids('?search=narwhal')).toEqual([review.id]);
    // LIKE's own characters are taken literally.
    expect(await ids('?search=%25')).toEqual([]);
    expect(await ids('?category=Writing')).toEqual([haiku.id, sonnet.id].sort());
    expect(await ids('?category=Writing&tag=Japanese')).toEqual([haiku.id]);
    expect(await ids('?tag=poetry')).toEqual([haiku.id, sonnet.id].sort());
    expect(await ids('?kind=scenario&category=Engineering')).toEqual([review.id]);
    expect(await ids('?kind=prompt&category=Engineering')).toEqual([]);

    const page = await discover('?search=nothing-matches-this');
    expect(page.items).toEqual([]);
    expect(page.categories).toEqual(expect.arrayContaining(['Engineering', 'Misc', 'Writing']));
    expect(page.categories).not.toContain('Secret');
    expect(page.categories).toEqual([...page.categories].sort());
    expect(page.tags).toEqual(expect.arrayContaining(['Japanese', 'poetry', 'quokka-tag']));
    expect(page.tags).not.toContain('secret-tag');
  });

  it('sorts by newest, or by the people who used an entry in 30 days, showing counts of 5 and more', async () => {
    const day = 86_400_000;
    const old = await addPrompt({
      title: 'Sorted old',
      category: 'Sorting',
      created_at: new Date(Date.now() - 3 * day),
    });
    const mid = await addScenario({
      title: 'Sorted mid',
      category: 'Sorting',
      user_prompt: 'Go',
      created_at: new Date(Date.now() - 2 * day),
    });
    const fresh = await addPrompt({ title: 'Sorted fresh', category: 'Sorting' });
    const few = await addPrompt({
      title: 'Sorted few',
      category: 'Sorting',
      created_at: new Date(Date.now() - 4 * day),
    });
    await use('prompt', old.id, 6); // 6 people copied it
    await use('scenario', mid.id, 5, 'run'); // 5 people ran a copy
    await use('prompt', few.id, 4); // too few to show or to rank by
    await use('prompt', fresh.id, 6, 'copy', 40); // outside the 30 days

    const newest = await discover('?category=Sorting');
    expect(newest.items.map((i) => i.title)).toEqual([
      'Sorted fresh',
      'Sorted mid',
      'Sorted old',
      'Sorted few',
    ]);
    const mostUsed = await discover('?category=Sorting&sort=most_used');
    expect(mostUsed.items.map((i) => [i.title, i.uses])).toEqual([
      ['Sorted old', 6],
      ['Sorted mid', 5],
      ['Sorted fresh', null],
      ['Sorted few', null],
    ]);

    // One person copying many times is one person.
    await t.db.insert(libraryUses).values(
      Array.from({ length: 10 }, () => ({
        kind: 'prompt' as const,
        item_id: few.id,
        user_id: people[0]!.id,
        action: 'copy' as const,
      })),
    );
    expect((await discover('?category=Sorting&sort=most_used')).items.at(-1)).toMatchObject({
      title: 'Sorted few',
      uses: null,
    });
  });

  it('pages through entries inserted in one statement, in either sort, without a skip or a repeat', async () => {
    // One statement: on PostgreSQL every row has the same microsecond `created_at`.
    const rows = await t.db
      .insert(prompts)
      .values(
        Array.from({ length: 23 }, (_, i) => ({
          title: `Paged ${i}`,
          content: 'x',
          category: 'Paging',
          user_id: author.id,
          published: true,
        })),
      )
      .returning();
    const cookbook = await t.db
      .insert(scenarios)
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          title: `Paged scenario ${i}`,
          category: 'Paging',
          user_id: author.id,
          published: true,
        })),
      )
      .returning();
    await use('prompt', rows[3]!.id, 5);
    await use('prompt', rows[17]!.id, 6);
    await use('scenario', cookbook[2]!.id, 5, 'run');
    const everyId = [...rows, ...cookbook].map((r) => r.id).sort();

    for (const sort of ['newest', 'most_used']) {
      const whole = await discover(`?category=Paging&sort=${sort}&limit=60`);
      expect(whole.next_cursor).toBeNull();
      for (const limit of [1, 4, 7]) {
        const seen = await allPages(`?category=Paging&sort=${sort}`, limit);
        expect(seen.map((i) => i.id)).toEqual(whole.items.map((i) => i.id));
      }
      expect(whole.items.map((i) => i.id).sort()).toEqual(everyId);
    }
    const top = (await discover('?category=Paging&sort=most_used&limit=3')).items;
    expect(top.map((i) => [i.id, i.uses])).toEqual([
      [rows[17]!.id, 6],
      // Equal counts: newest first, then by id.
      ...[
        [rows[3]!.id, 5],
        [cookbook[2]!.id, 5],
      ].sort((a, b) => {
        const at = (id: unknown) =>
          [...rows, ...cookbook].find((r) => r.id === id)!.created_at.getTime();
        return at(b[0]) - at(a[0]) || String(b[0]).localeCompare(String(a[0]));
      }),
    ]);
  });

  it('keeps the counts of the first page while paging on, so a new use moves nothing across pages', async () => {
    const rows = await t.db
      .insert(prompts)
      .values(
        Array.from({ length: 6 }, (_, i) => ({
          title: `Frozen ${i}`,
          content: 'x',
          category: 'Frozen',
          user_id: author.id,
          published: true,
        })),
      )
      .returning();
    const first = await discover('?category=Frozen&sort=most_used&limit=3');
    // Meanwhile an entry of the second page becomes the most used.
    const next = first.items.map((i) => i.id);
    const later = rows.find((r) => !next.includes(r.id))!;
    await use('prompt', later.id, 6, 'copy', 0);
    const rest = await discover(
      `?category=Frozen&sort=most_used&limit=3&cursor=${encodeURIComponent(first.next_cursor!)}`,
    );
    expect([...next, ...rest.items.map((i) => i.id)].sort()).toEqual(rows.map((r) => r.id).sort());
    // A new first page sees it.
    expect((await discover('?category=Frozen&sort=most_used&limit=3')).items[0]!.id).toBe(later.id);
  });

  it('refuses a cursor it did not write, or one of the other sort, with discover:bad_cursor', async () => {
    await addPrompt({ title: 'Cursor a', category: 'Cursors' });
    await addPrompt({ title: 'Cursor b', category: 'Cursors' });
    const { next_cursor } = await discover('?category=Cursors&limit=1');
    expect(next_cursor).toEqual(expect.any(String));
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = [
      'not-a-cursor',
      b64({ s: 'newest', u: 0, t: 'yesterday', i: '00000000-0000-4000-8000-000000000000' }),
      b64({ s: 'newest', u: -1, t: new Date().toISOString(), i: 'x', a: 'y' }),
      b64(['newest']),
      Buffer.from('2025-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000').toString(
        'base64url',
      ),
    ];
    for (const cursor of forged) {
      const res = await guest().get<{ code: string; error: string }>(
        `/rest/v1/discover?cursor=${encodeURIComponent(cursor)}`,
      );
      expect(res.status, cursor).toBe(400);
      expect(res.body).toEqual({
        code: 'discover:bad_cursor',
        error: messageFor('discover:bad_cursor'),
      });
    }
    const crossed = await guest().get<{ code: string }>(
      `/rest/v1/discover?category=Cursors&sort=most_used&cursor=${encodeURIComponent(next_cursor!)}`,
    );
    expect(crossed.status).toBe(400);
    expect(crossed.body.code).toBe('discover:bad_cursor');
  });

  it('refuses a bad query with bad_request:validation', async () => {
    for (const query of ['?kind=agent', '?sort=oldest', '?limit=0', '?limit=61']) {
      const res = await guest().get<{ code: string }>(`/rest/v1/discover${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
  });
});

describe('the rate limit of public reads', () => {
  it('answers a guest 429 once the data window is spent', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_DATA_POINTS: '2' } });
    try {
      const visitor = limited.client();
      expect((await visitor.get('/rest/v1/discover')).status).toBe(200);
      expect((await visitor.get('/rest/v1/trends')).status).toBe(200);
      const refused = await visitor.get<{ code: string }>('/rest/v1/discover');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limit:exceeded');
    } finally {
      await limited.close();
    }
  });
});
