import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '@chorus/shared/api/conversations';
import type {
  AdminPrompt,
  AdminPromptsResponse,
  LibraryPromptsResponse,
} from '@chorus/shared/api/library';
import {
  promptExportSchema,
  promptLimits,
  type Prompt,
  type PromptExport,
  type PromptImportResult,
  type PromptPage,
  type PromptVersion,
  type RenderedPrompt,
} from '@chorus/shared/api/prompts';
import { messageFor } from '@chorus/shared/error-catalogue';
import { PromptsRepository } from '../../../db/repositories/prompts.ts';
import { prompts, promptVersions } from '../../../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type ApiFailure = { error: string; code: string };

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await startTestApp({ providerSim: true });
  // The first account of a workspace is its super admin.
  admin = await t.user('prompts-root@example.com');
});
afterAll(() => t.close());

const create = async (owner: Client, body: Record<string, unknown>) => {
  const res = await owner.post<Prompt>('/rest/v1/prompts', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const list = async (owner: Client, query = '') =>
  (await owner.get<PromptPage>(`/rest/v1/prompts${query}`)).body;

const row = async (id: string) => (await t.db.select().from(prompts).where(eq(prompts.id, id)))[0];

const library = async () =>
  (await t.client().get<LibraryPromptsResponse>('/rest/v1/library/prompts')).body.items;

const waitFor = async (check: () => Promise<boolean>, ms = 5_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

describe('saving, reading, changing and deleting prompts', () => {
  it('creates a prompt at version 1 with its variables, and reads it back', async () => {
    const ann = await t.user('crud-ann@example.com');
    const created = await create(ann, {
      title: '  Explain {{topic}}  ',
      content: 'Explain {{topic}} to {{audience|a child}} in {{ words }} words.',
      description: 'For {{audience}}',
      category: 'Teaching',
      tags: ['explain', 'explain', 'kids'],
    });
    expect(created).toMatchObject({
      title: 'Explain {{topic}}',
      category: 'Teaching',
      tags: ['explain', 'kids'],
      favorite: false,
      use_count: 0,
      last_used_at: null,
      version: 1,
      sharing: 'private',
      variables: [
        { name: 'topic', default: null },
        { name: 'audience', default: 'a child' },
        { name: 'words', default: null },
      ],
    });
    const versions = await ann.get<{ items: PromptVersion[] }>(
      `/rest/v1/prompts/${created.id}/versions`,
    );
    expect(versions.body.items).toEqual([
      expect.objectContaining({
        version: 1,
        title: 'Explain {{topic}}',
        tags: ['explain', 'kids'],
      }),
    ]);

    const read = await ann.get<Prompt>(`/rest/v1/prompts/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const minimal = await create(ann, { title: 'Short', content: 'Hi' });
    expect(minimal).toMatchObject({ description: '', category: '', tags: [], variables: [] });
  });

  it('edits, then deletes with its versions; a deleted or malformed id is a 404', async () => {
    const ann = await t.user('crud-edit@example.com');
    const created = await create(ann, { title: 'Draft', content: 'Old text' });
    const edited = await ann.patch<Prompt>(`/rest/v1/prompts/${created.id}`, {
      content: 'New text',
      favorite: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ content: 'New text', favorite: true, version: 2 });

    expect((await ann.del(`/rest/v1/prompts/${created.id}`)).status).toBe(204);
    expect(
      await t.db.select().from(promptVersions).where(eq(promptVersions.prompt_id, created.id)),
    ).toEqual([]);
    for (const id of [created.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await ann.get<ApiFailure>(`/rest/v1/prompts/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({
        code: 'prompts:not_found',
        error: messageFor('prompts:not_found'),
      });
    }
    expect((await ann.del(`/rest/v1/prompts/${created.id}`)).status).toBe(404);
  });

  it('refuses guests with 401', async () => {
    const guest = t.client();
    expect((await guest.get('/rest/v1/prompts')).status).toBe(401);
    expect((await guest.post('/rest/v1/prompts', { title: 'x', content: 'y' })).status).toBe(401);
    expect((await guest.get('/rest/v1/prompts/export')).status).toBe(401);
  });
});

describe('listing prompts', () => {
  let bea: Client;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    bea = await t.user('list-bea@example.com');
    const seeds = [
      { title: 'Summarise a paper', content: 'Summarise {{text}}', category: 'Research' },
      {
        title: 'Cover letter',
        content: 'Write a letter',
        category: 'Writing',
        favorite: true,
        tags: ['career'],
      },
      {
        title: 'Unit tests',
        content: 'Write tests for this code',
        description: 'Vitest, 100% coverage',
        category: 'Code',
      },
      { title: 'Haiku', content: 'A haiku about {{season}}', category: 'Writing', favorite: true },
      { title: 'No category', content: 'Plain' },
    ];
    for (const seed of seeds) ids[seed.title] = (await create(bea, seed)).id;
  });

  it('pages newest first with a cursor, and lists every category once', async () => {
    const first = await list(bea, '?limit=2');
    expect(first.items.map((p) => p.title)).toEqual(['No category', 'Haiku']);
    expect(first.categories).toEqual(['Code', 'Research', 'Writing']);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(bea, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((p) => p.title)).toEqual(['Unit tests', 'Cover letter']);
    const third = await list(bea, `?limit=2&cursor=${second.next_cursor}`);
    expect(third.items.map((p) => p.title)).toEqual(['Summarise a paper']);
    expect(third.next_cursor).toBeNull();
  });

  it('searches the title, description, content and tags, and filters by category and favourite', async () => {
    const titles = async (query: string) => (await list(bea, query)).items.map((p) => p.title);
    expect(await titles('?search=summarise')).toEqual(['Summarise a paper']);
    expect(await titles('?search=vitest')).toEqual(['Unit tests']);
    expect(await titles('?search=HAIKU%20about')).toEqual(['Haiku']);
    expect(await titles('?search=caree')).toEqual(['Cover letter']);
    expect(await titles('?search=100%25')).toEqual(['Unit tests']);
    expect(await titles('?search=%25%25')).toEqual([]);
    expect(await titles('?search=write')).toEqual(['Unit tests', 'Cover letter']);
    expect(await titles('?category=Writing')).toEqual(['Haiku', 'Cover letter']);
    expect(await titles('?favorite=true')).toEqual(['Haiku', 'Cover letter']);
    expect(await titles('?favorite=false&category=Writing')).toEqual([]);
    expect(await titles('?favorite=true&search=haiku&category=Writing')).toEqual(['Haiku']);
  });

  it('pages through rows the database dated to the microsecond (seeds, admin entries)', async () => {
    const seeded = await t.user('list-seeded@example.com');
    // One statement: every row gets the same now(), with microseconds.
    await t.db.insert(prompts).values(
      ['One', 'Two', 'Three', 'Four'].map((title) => ({
        user_id: seeded.id,
        title,
        content: 'c',
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await list(seeded, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((p) => p.title));
      cursor = page.next_cursor;
    }
    expect(seen.sort()).toEqual(['Four', 'One', 'Three', 'Two']);
  });

  it('refuses a forged cursor with prompts:bad_cursor', async () => {
    for (const cursor of ['nonsense', Buffer.from('2024-01-01|x').toString('base64url')]) {
      const res = await bea.get<ApiFailure>(`/rest/v1/prompts?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'prompts:bad_cursor',
        error: messageFor('prompts:bad_cursor'),
      });
    }
  });
});

describe('bad input', () => {
  let cai: Client;
  let id: string;
  beforeAll(async () => {
    cai = await t.user('bad-input-cai@example.com');
    id = (await create(cai, { title: 'Valid', content: 'Valid {{x}}' })).id;
  });

  const long = (n: number) => 'x'.repeat(n + 1);

  it('answers every bad field of a new or changed prompt with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ content: 'c' }, 'Field title: The title is missing'],
      [{ title: '   ', content: 'c' }, 'Field title: Give the prompt a title'],
      [{ title: 5, content: 'c' }, 'Field title: The title must be text'],
      [{ title: long(promptLimits.title), content: 'c' }, 'The title is at most 200 characters'],
      [{ title: 't' }, 'Field content: The prompt is missing'],
      [{ title: 't', content: '' }, 'Field content: Write the prompt'],
      [{ title: 't', content: long(promptLimits.content) }, 'The prompt is at most 20,000'],
      [
        { title: 't', content: 'c', description: long(promptLimits.description) },
        'Field description: The description is at most 2,000 characters',
      ],
      [{ title: 't', content: 'c', description: null }, 'The description must be text'],
      [
        { title: 't', content: 'c', category: long(promptLimits.category) },
        'Field category: The category is at most 60 characters',
      ],
      [{ title: 't', content: 'c', tags: 'one' }, 'Field tags: Tags must be a list of words'],
      [{ title: 't', content: 'c', tags: [''] }, 'Field tags.0: A tag cannot be empty'],
      [{ title: 't', content: 'c', tags: [long(promptLimits.tag)] }, 'A tag is at most 40'],
      [{ title: 't', content: 'c', tags: [1] }, 'Field tags.0: A tag must be text'],
      [
        { title: 't', content: 'c', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        'Field tags: At most 20 tags',
      ],
      [{ title: 't', content: 'c', favorite: 'yes' }, 'favorite must be true or false'],
      [{ title: 't', content: 'c', owner: 'someone' }, 'owner'],
    ];
    for (const [body, message] of cases) {
      for (const [method, url] of [
        ['POST', '/rest/v1/prompts'],
        ['PATCH', `/rest/v1/prompts/${id}`],
      ] as const) {
        // A change may leave out any field.
        if (method === 'PATCH' && message.endsWith(' is missing')) continue;
        const res = await cai.request<ApiFailure>(method, url, body);
        expect(res.status, `${method} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        expect(res.body.code).toBe('bad_request:validation');
        expect(res.body.error).toContain(message);
      }
    }
    expect(await row(id)).toMatchObject({ title: 'Valid', version: 1 });
  });

  it('refuses an empty change, malformed JSON and bad queries with typed 400s, never a 500', async () => {
    const empty = await cai.patch<ApiFailure>(`/rest/v1/prompts/${id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('Send at least one field to change');

    for (const [method, url] of [
      ['POST', '/rest/v1/prompts'],
      ['PATCH', `/rest/v1/prompts/${id}`],
      ['POST', `/rest/v1/prompts/${id}/render`],
      ['POST', `/rest/v1/prompts/${id}/share`],
      ['POST', '/rest/v1/prompts/import'],
    ] as const) {
      const res = await cai.request<ApiFailure>(method, url, '{"title": "x",');
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('request:malformed_json');
    }

    const bad: [string, string][] = [
      ['GET', '/rest/v1/prompts?limit=0'],
      ['GET', '/rest/v1/prompts?limit=many'],
      ['GET', '/rest/v1/prompts?limit=101'],
      ['GET', '/rest/v1/prompts?favorite=maybe'],
      ['GET', `/rest/v1/prompts?search=${long(200)}`],
      ['GET', `/rest/v1/prompts?category=${long(promptLimits.category)}`],
      ['GET', `/rest/v1/prompts?cursor=${long(200)}`],
      ['POST', `/rest/v1/prompts/${id}/versions/abc/restore`],
      ['POST', `/rest/v1/prompts/${id}/versions/0/restore`],
      ['POST', `/rest/v1/prompts/${id}/versions/1.5/restore`],
    ];
    for (const [method, url] of bad) {
      const res = await cai.request<ApiFailure>(method, url, method === 'GET' ? undefined : {});
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('bad_request:validation');
    }
    const favorite = await cai.get<ApiFailure>('/rest/v1/prompts?favorite=maybe');
    expect(favorite.body.error).toContain('favorite must be true or false');

    const bodies: [string, unknown, string][] = [
      [`/rest/v1/prompts/${id}/render`, { variables: 'x' }, 'variables must be an object'],
      [`/rest/v1/prompts/${id}/render`, { variables: { x: 5 } }, 'A value must be text'],
      [
        `/rest/v1/prompts/${id}/render`,
        { variables: { x: long(promptLimits.variableValue) } },
        'A value is at most 20,000 characters',
      ],
      [`/rest/v1/prompts/${id}/render`, { values: {} }, 'values'],
      [`/rest/v1/prompts/${id}/share`, { public: 'yes' }, 'public'],
      [`/rest/v1/prompts/${id}/share`, {}, 'public'],
    ];
    for (const [url, body, message] of bodies) {
      const res = await cai.post<ApiFailure>(url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
      expect(res.body.error).toContain(message);
    }
  });
});

describe('versions', () => {
  it('makes a version for each change of content, none for a favourite or an unchanged save, and restores an old one as the newest', async () => {
    const dee = await t.user('versions-dee@example.com');
    const p = await create(dee, { title: 'Email', content: 'Write to {{name}}', tags: ['mail'] });
    const url = `/rest/v1/prompts/${p.id}`;

    const favourite = await dee.patch<Prompt>(url, { favorite: true });
    expect(favourite.body).toMatchObject({ favorite: true, version: 1, updated_at: p.updated_at });
    const unchanged = await dee.patch<Prompt>(url, { title: 'Email', tags: ['mail'] });
    expect(unchanged.body.version).toBe(1);

    await dee.patch(url, { content: 'Write kindly to {{name}}' });
    await dee.patch(url, { tags: ['mail', 'kind'], category: 'Work' });
    const versions = await dee.get<{ items: PromptVersion[] }>(`${url}/versions`);
    expect(versions.body.items.map((v) => [v.version, v.content, v.tags])).toEqual([
      [3, 'Write kindly to {{name}}', ['mail', 'kind']],
      [2, 'Write kindly to {{name}}', ['mail']],
      [1, 'Write to {{name}}', ['mail']],
    ]);

    const restored = await dee.post<Prompt>(`${url}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      content: 'Write to {{name}}',
      tags: ['mail'],
      category: '',
      favorite: true,
      version: 4,
    });
    const after = await dee.get<{ items: PromptVersion[] }>(`${url}/versions`);
    expect(after.body.items[0]).toMatchObject({ version: 4, content: 'Write to {{name}}' });

    const unknown = await dee.post<ApiFailure>(`${url}/versions/99/restore`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      code: 'prompts:version_not_found',
      error: messageFor('prompts:version_not_found'),
    });
  });
});

describe('rendering', () => {
  it('fills values and defaults, inserts values as written, and names every missing variable', async () => {
    const eve = await t.user('render-eve@example.com');
    const p = await create(eve, {
      title: 'About {{topic}}',
      description: 'In a {{tone|friendly}} tone',
      content: 'Tell me about {{topic}} for {{audience}}; {{constructor}}',
    });
    const url = `/rest/v1/prompts/${p.id}/render`;
    const filled = await eve.post<RenderedPrompt>(url, {
      variables: { topic: 'otters {{audience}}', audience: 'kids', constructor: '$&', extra: 'x' },
    });
    expect(filled.status).toBe(200);
    expect(filled.body).toEqual({
      title: 'About otters {{audience}}',
      description: 'In a friendly tone',
      content: 'Tell me about otters {{audience}} for kids; $&',
    });

    const missing = await eve.post<ApiFailure>(url, {
      variables: { topic: 'otters', audience: ' ' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'prompts:missing_variable',
      error: messageFor('prompts:missing_variable', { names: ['audience', 'constructor'] }),
    });
    const one = await eve.post<ApiFailure>(url, {
      variables: { topic: 'otters', constructor: 'x' },
    });
    expect(one.body.error).toBe(messageFor('prompts:missing_variable', { names: ['audience'] }));
    expect(one.body.error).toContain('{{audience}}');

    const plain = await create(eve, { title: 'Plain', content: 'No variables' });
    const rendered = await eve.post<RenderedPrompt>(`/rest/v1/prompts/${plain.id}/render`);
    expect(rendered.body).toEqual({ title: 'Plain', description: '', content: 'No variables' });
  });
});

describe('sharing with the public library', () => {
  it('goes from submitted to published through an admin, is copied by another user, and leaves the library when edited or withdrawn', async () => {
    const fay = await t.user('share-fay@example.com');
    const gus = await t.user('share-gus@example.com');
    const p = await create(fay, {
      title: 'Meeting notes',
      content: 'Turn {{notes}} into minutes',
      description: 'Minutes',
      category: 'Work',
      tags: ['meetings'],
      favorite: true,
    });

    expect((await gus.get<ApiFailure>('/rest/v1/admin/prompts')).status).toBe(403);
    const queue = async () =>
      (await admin.get<AdminPromptsResponse>('/rest/v1/admin/prompts')).body.items.map((i) => i.id);
    expect(await queue()).not.toContain(p.id);

    const shared = await fay.post<Prompt>(`/rest/v1/prompts/${p.id}/share`, { public: true });
    expect(shared.status).toBe(200);
    expect(shared.body.sharing).toBe('submitted');
    expect(await queue()).toContain(p.id);
    expect((await library()).map((i) => i.id)).not.toContain(p.id);
    // Not published yet: nobody can copy it.
    const early = await gus.post<ApiFailure>(`/rest/v1/library/prompts/${p.id}/copy`);
    expect(early.status).toBe(404);
    expect(early.body).toEqual({
      code: 'library:not_found',
      error: messageFor('library:not_found', { kind: 'prompt' }),
    });

    const approved = await admin.patch<AdminPrompt>(`/rest/v1/admin/prompts/${p.id}`, {
      published: true,
    });
    expect(approved.status).toBe(200);
    expect((await library()).find((i) => i.id === p.id)).toMatchObject({
      title: 'Meeting notes',
      content: 'Turn {{notes}} into minutes',
      tags: ['meetings'],
    });
    expect((await fay.get<Prompt>(`/rest/v1/prompts/${p.id}`)).body.sharing).toBe('published');

    expect((await t.client().post(`/rest/v1/library/prompts/${p.id}/copy`)).status).toBe(401);
    const copy = await gus.post<Prompt>(`/rest/v1/library/prompts/${p.id}/copy`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      title: 'Meeting notes',
      content: 'Turn {{notes}} into minutes',
      description: 'Minutes',
      category: 'Work',
      tags: ['meetings'],
      favorite: false,
      version: 1,
      use_count: 0,
      sharing: 'private',
    });
    expect(copy.body.id).not.toBe(p.id);
    expect((await list(gus)).items.map((i) => i.id)).toEqual([copy.body.id]);
    expect(
      (await gus.get<{ items: PromptVersion[] }>(`/rest/v1/prompts/${copy.body.id}/versions`)).body
        .items,
    ).toHaveLength(1);
    // The copy is Gus's own; the original stays Fay's.
    expect((await gus.get(`/rest/v1/prompts/${p.id}`)).status).toBe(404);
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expect((await gus.post(`/rest/v1/library/prompts/${id}/copy`)).status).toBe(404);
    }

    // A favourite is no change of content: it stays published.
    await fay.patch(`/rest/v1/prompts/${p.id}`, { favorite: false });
    expect((await row(p.id))!.published).toBe(true);

    await admin.patch(`/rest/v1/admin/prompts/${p.id}`, { featured: true });
    const edited = await fay.patch<Prompt>(`/rest/v1/prompts/${p.id}`, {
      content: 'Turn {{notes}} into minutes, with links',
    });
    expect(edited.body.sharing).toBe('submitted');
    expect(await row(p.id)).toMatchObject({ is_public: true, published: false, featured: false });
    expect((await library()).map((i) => i.id)).not.toContain(p.id);
    expect(await queue()).toContain(p.id);

    await admin.patch(`/rest/v1/admin/prompts/${p.id}`, { featured: true });
    const withdrawn = await fay.post<Prompt>(`/rest/v1/prompts/${p.id}/share`, { public: false });
    expect(withdrawn.body.sharing).toBe('private');
    expect(await row(p.id)).toMatchObject({ is_public: false, published: false, featured: false });
    expect((await library()).map((i) => i.id)).not.toContain(p.id);
    expect(await queue()).not.toContain(p.id);
  });

  it('treats a library entry an admin wrote as the admin’s own, not another user’s', async () => {
    const created = await admin.post<AdminPrompt>('/rest/v1/admin/prompts', {
      title: 'Curated',
      content: 'Curated content',
    });
    const hal = await t.user('share-hal@example.com');
    expect((await hal.get(`/rest/v1/prompts/${created.body.id}`)).status).toBe(404);
    expect((await hal.patch(`/rest/v1/prompts/${created.body.id}`, { title: 'x' })).status).toBe(
      404,
    );
    expect((await hal.post(`/rest/v1/library/prompts/${created.body.id}/copy`)).status).toBe(201);
    await admin.del(`/rest/v1/admin/prompts/${created.body.id}`);
  });
});

describe('export and import', () => {
  it('exports every prompt as a dated attachment that imports back as new prompts', async () => {
    const ida = await t.user('export-ida@example.com');
    await create(ida, { title: 'First', content: 'One {{a}}', tags: ['x'], category: 'C' });
    await create(ida, { title: 'Second', content: 'Two', favorite: true, description: 'D' });

    const res = await ida.send('GET', '/rest/v1/prompts/export');
    expect(res.status).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="chorus-prompts-${day}.json"; filename*=UTF-8''chorus-prompts-${day}.json`,
    );
    const file = promptExportSchema.parse(await res.json());
    expect(file).toMatchObject({ format: 'chorus.prompts', version: 1 });
    expect(file.prompts).toEqual([
      {
        title: 'First',
        content: 'One {{a}}',
        description: '',
        category: 'C',
        tags: ['x'],
        favorite: false,
      },
      { title: 'Second', content: 'Two', description: 'D', category: '', tags: [], favorite: true },
    ]);

    const jo = await t.user('import-jo@example.com');
    const imported = await jo.post<PromptImportResult>('/rest/v1/prompts/import', file);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ imported: 2, refused: [] });
    const mine = (await list(jo)).items;
    expect(mine.map((p) => [p.title, p.version, p.sharing])).toEqual([
      ['Second', 1, 'private'],
      ['First', 1, 'private'],
    ]);
    const again = await jo.send('GET', '/rest/v1/prompts/export');
    const reexported = (await again.json()) as PromptExport;
    expect(reexported.prompts).toEqual(file.prompts);
    for (const p of mine) {
      const versions = await jo.get<{ items: PromptVersion[] }>(
        `/rest/v1/prompts/${p.id}/versions`,
      );
      expect(versions.body.items.map((v) => v.version)).toEqual([1]);
    }
  });

  it('imports the good rows and reports each refused row with its place, title and reasons', async () => {
    const kim = await t.user('import-kim@example.com');
    const res = await kim.post<PromptImportResult>('/rest/v1/prompts/import', {
      format: 'chorus.prompts',
      version: 1,
      exported_at: 'whenever',
      prompts: [
        { title: 'Good one', content: 'Fine', unknown_field: 'ignored' },
        { content: 'No title' },
        { title: 'Too long', content: 'x'.repeat(promptLimits.content + 1) },
        { title: 'Bad tags', content: 'c', tags: 'a,b', favorite: 'no' },
        'just a string',
        null,
        { title: 'Good two', content: 'Also fine', tags: ['t', 't'] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: 2,
      refused: [
        { row: 2, title: null, reasons: ['title: The title is missing'] },
        {
          row: 3,
          title: 'Too long',
          reasons: ['content: The prompt is at most 20,000 characters'],
        },
        {
          row: 4,
          title: 'Bad tags',
          reasons: [
            'tags: Tags must be a list of words',
            'favorite: favorite must be true or false',
          ],
        },
        { row: 5, title: null, reasons: ['A prompt must be an object with a title and content'] },
        { row: 6, title: null, reasons: ['A prompt must be an object with a title and content'] },
      ],
    });
    expect((await list(kim)).items.map((p) => [p.title, p.tags])).toEqual([
      ['Good two', ['t']],
      ['Good one', []],
    ]);
  });

  it('refuses what is no prompt export with prompts:import_invalid, and a bad shape with a clear message', async () => {
    const lee = await t.user('import-lee@example.com');
    // A JSON string as the whole body: sent as it is written here.
    for (const body of [[], '"text"', { format: 'other', version: 1, prompts: [] }, {}]) {
      const res = await lee.post<ApiFailure>('/rest/v1/prompts/import', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        code: 'prompts:import_invalid',
        error: messageFor('prompts:import_invalid'),
      });
    }
    const cases: [unknown, string][] = [
      [{ format: 'chorus.prompts', version: 2, prompts: [] }, 'This export version is not known'],
      [{ format: 'chorus.prompts', version: 1, prompts: {} }, '"prompts" must be a list'],
      [
        {
          format: 'chorus.prompts',
          version: 1,
          prompts: Array.from({ length: promptLimits.importRows + 1 }, () => ({})),
        },
        'One import holds at most 1,000 prompts',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await lee.post<ApiFailure>('/rest/v1/prompts/import', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
      expect(res.body.error).toContain(message);
    }
    expect((await list(lee)).items).toEqual([]);
  });
});

describe('the limit of prompts a user keeps', () => {
  it('refuses a new prompt, a copy or an imported row beyond it', async () => {
    const max = await t.user('limit-max@example.com');
    const almost = promptLimits.perUser - 2;
    await t.db.insert(prompts).values(
      Array.from({ length: almost }, (_, i) => ({
        user_id: max.id,
        title: `Bulk ${i}`,
        content: 'bulk',
      })),
    );
    const imported = await max.post<PromptImportResult>('/rest/v1/prompts/import', {
      format: 'chorus.prompts',
      version: 1,
      prompts: [
        { title: 'Fits 1', content: 'c' },
        { title: 'Fits 2', content: 'c' },
        { title: 'Over', content: 'c' },
      ],
    });
    expect(imported.body).toEqual({
      imported: 2,
      refused: [
        {
          row: 3,
          title: 'Over',
          reasons: ['Your library is full: it holds at most 5,000 prompts'],
        },
      ],
    });

    const refused = await max.post<ApiFailure>('/rest/v1/prompts', {
      title: 'One more',
      content: 'c',
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'prompts:too_many',
      error: messageFor('prompts:too_many', { max: promptLimits.perUser }),
    });

    const published = await admin.post<AdminPrompt>('/rest/v1/admin/prompts', {
      title: 'To copy',
      content: 'c',
    });
    const copy = await max.post<ApiFailure>(`/rest/v1/library/prompts/${published.body.id}/copy`);
    expect(copy.status).toBe(409);
    expect(copy.body.code).toBe('prompts:too_many');
    await admin.del(`/rest/v1/admin/prompts/${published.body.id}`);
  });
});

describe('use counts from the chat', () => {
  it('counts a message sent with one of the user’s prompts, and nothing for a prompt of someone else', async () => {
    const ned = await t.user('chat-ned@example.com');
    const other = await t.user('chat-other@example.com');
    await ned.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-test-prompts-0001' });
    const conv = (await ned.post<Conversation>('/rest/v1/conversations', { title: 'Chat' })).body;
    const mine = await create(ned, { title: 'Mine', content: 'Tell me about {{x}}' });
    const theirs = await create(other, { title: 'Theirs', content: 'Not Ned’s' });

    const chat = async (body: Record<string, unknown>) => {
      const res = await t.app.request('/functions/v1/chat', {
        method: 'POST',
        headers: {
          origin: TEST_APP_URL,
          'content-type': 'application/json',
          'x-forwarded-for': ned.ip,
          cookie: [...ned.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
        body: JSON.stringify({ conversation_id: conv.id, provider: 'openai', ...body }),
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('text-delta');
    };

    await chat({ text: 'Tell me about otters', prompt_id: mine.id });
    await waitFor(async () => (await row(mine.id))!.use_count === 1);
    const used = (await ned.get<Prompt>(`/rest/v1/prompts/${mine.id}`)).body;
    expect(used.use_count).toBe(1);
    expect(used.last_used_at).toEqual(expect.any(String));
    // A use is no edit.
    expect(used).toMatchObject({ version: 1, updated_at: mine.updated_at });

    await chat({ text: 'And seals?', prompt_id: mine.id });
    await waitFor(async () => (await row(mine.id))!.use_count === 2);

    await chat({ text: 'Borrowed prompt', prompt_id: theirs.id });
    await chat({ text: 'Unknown prompt', prompt_id: '00000000-0000-4000-8000-000000000000' });
    // Give a wrong count time to land before checking there is none.
    await new Promise((r) => setTimeout(r, 200));
    expect(await row(theirs.id)).toMatchObject({ use_count: 0, last_used_at: null });
    expect((await row(mine.id))!.use_count).toBe(2);
  });
});

describe('isolation between users', () => {
  it('lets a second user read, change, render, version, restore, share, export or delete none of the first user’s prompts', async () => {
    const owner = await t.user('iso-owner@example.com');
    const intruder = await t.user('iso-intruder@example.com');
    const p = await create(owner, {
      title: 'Private {{x}}',
      content: 'Secret',
      category: 'Hidden',
    });
    await create(intruder, { title: 'Intruder’s own', content: 'Mine' });
    const base = `/rest/v1/prompts/${p.id}`;
    const attempts: [string, string, unknown][] = [
      ['GET', base, undefined],
      ['PATCH', base, { title: 'Taken' }],
      ['PATCH', base, { favorite: true }],
      ['POST', `${base}/render`, { variables: { x: 'y' } }],
      ['GET', `${base}/versions`, undefined],
      ['POST', `${base}/versions/1/restore`, {}],
      ['POST', `${base}/share`, { public: true }],
      ['DELETE', base, undefined],
    ];
    for (const [method, url, body] of attempts) {
      const res = await intruder.request<ApiFailure>(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.code).toBe('prompts:not_found');
    }

    const seen = await list(intruder);
    expect(seen.items.map((i) => i.title)).toEqual(['Intruder’s own']);
    expect(seen.categories).toEqual([]);
    for (const query of ['?search=secret', '?category=Hidden']) {
      expect((await list(intruder, query)).items).toEqual([]);
    }
    const exported = (await (
      await intruder.send('GET', '/rest/v1/prompts/export')
    ).json()) as PromptExport;
    expect(exported.prompts.map((i) => i.title)).toEqual(['Intruder’s own']);

    expect(await row(p.id)).toMatchObject({
      title: 'Private {{x}}',
      favorite: false,
      is_public: false,
      version: 1,
    });
    expect((await owner.get(base)).status).toBe(200);
  });

  it('scopes every repository method to its user', async () => {
    const a = await t.user('iso-repo-a@example.com');
    const b = await t.user('iso-repo-b@example.com');
    const mine = await new PromptsRepository(t.db, a.id).create({
      title: 'A',
      content: 'a',
      description: '',
      category: 'Cat',
      tags: [],
      favorite: false,
    });
    if (mine === 'too_many') throw new Error('unexpected');
    const theirs = new PromptsRepository(t.db, b.id);
    expect(await theirs.get(mine.id)).toBeUndefined();
    expect(await theirs.update(mine.id, { title: 'B' })).toBeUndefined();
    expect(await theirs.versions(mine.id)).toBeUndefined();
    expect(await theirs.restore(mine.id, 1)).toBeUndefined();
    expect(await theirs.share(mine.id, true)).toBeUndefined();
    expect(await theirs.delete(mine.id)).toBe(false);
    await theirs.countUse(mine.id);
    expect(await theirs.list({ limit: 100 })).toEqual([]);
    expect(await theirs.all()).toEqual([]);
    expect(await theirs.categories()).toEqual([]);
    expect(await theirs.copyPublished(mine.id)).toBeUndefined();
    expect(await row(mine.id)).toEqual(mine);
  });
});
