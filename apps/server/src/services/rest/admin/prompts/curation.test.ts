import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminPrompt,
  AdminPromptsResponse,
  AdminScenario,
  AdminScenariosResponse,
  LibraryPromptsResponse,
  LibraryScenariosResponse,
} from '@chorus/shared/api/library';
import { adminAuditLogs, prompts, scenarios } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;
let sharedId: string;
let privateId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('root@example.com');
  plain = await t.user('author@example.com');
  const rows = await t.db
    .insert(prompts)
    .values([
      {
        user_id: plain.id,
        title: 'Shared by an author',
        content: 'Summarise {text}',
        is_public: true,
      },
      { user_id: plain.id, title: 'Private draft', content: 'secret', is_public: false },
    ])
    .returning();
  sharedId = rows[0]!.id;
  privateId = rows[1]!.id;
});
afterAll(() => t.close());

const lastAudit = async (recordId: string) =>
  (
    await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.record_id, recordId))
      .orderBy(desc(adminAuditLogs.created_at))
  )[0];

describe('/rest/v1/admin/prompts and /admin/scenarios', () => {
  it('refuses guests with 401 and plain users with 403 on every route', async () => {
    const guest = t.client();
    for (const kind of ['prompts', 'scenarios']) {
      const calls = [
        ['GET', `/rest/v1/admin/${kind}`, undefined],
        ['POST', `/rest/v1/admin/${kind}`, { title: 'x', content: 'y', steps: ['z'] }],
        ['PATCH', `/rest/v1/admin/${kind}/${sharedId}`, { published: true }],
        ['DELETE', `/rest/v1/admin/${kind}/${sharedId}`, undefined],
      ] as const;
      for (const [method, url, body] of calls) {
        expect((await guest.request(method, url, body)).status, `${method} ${url}`).toBe(401);
        expect((await plain.request(method, url, body)).status, `${method} ${url}`).toBe(403);
      }
    }
    const [row] = await t.db.select().from(prompts).where(eq(prompts.id, sharedId));
    expect(row).toMatchObject({ published: false, featured: false });
    expect(await t.db.select().from(adminAuditLogs)).toEqual([]);
  });

  it('lists what authors shared, never their private entries', async () => {
    const res = await admin.get<AdminPromptsResponse>('/rest/v1/admin/prompts');
    expect(res.status).toBe(200);
    expect(res.body.items.map((p) => p.title)).toEqual(['Shared by an author']);
    expect(res.body.items[0]).toMatchObject({
      author_email: 'author@example.com',
      is_public: true,
      published: false,
    });
    expect(
      (await admin.patch(`/rest/v1/admin/prompts/${privateId}`, { published: true })).status,
    ).toBe(404);
    expect((await admin.del(`/rest/v1/admin/prompts/${privateId}`)).status).toBe(404);
    expect((await t.db.select().from(prompts).where(eq(prompts.id, privateId)))[0]!.published).toBe(
      false,
    );
  });

  it('publishes, features and unpublishes with an audit row each, and the public library follows', async () => {
    const library = async () =>
      (await t.client().get<LibraryPromptsResponse>('/rest/v1/library/prompts')).body.items.map(
        (p) => p.title,
      );
    expect(await library()).toEqual([]);

    const published = await admin.patch<AdminPrompt>(`/rest/v1/admin/prompts/${sharedId}`, {
      published: true,
    });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ published: true, featured: false });
    expect(await lastAudit(sharedId)).toMatchObject({
      admin_id: admin.id,
      action: 'curate_prompt',
      table_name: 'prompts',
      details: { published: true, featured: false, previous: { published: false } },
    });

    const created = await admin.post<AdminPrompt>('/rest/v1/admin/prompts', {
      title: 'Curated by an admin',
      content: 'Explain {topic} simply',
      tags: ['teaching'],
      featured: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ published: true, featured: true, user_id: admin.id });
    expect(await lastAudit(created.body.id)).toMatchObject({ action: 'create_prompt' });
    // Featured first.
    expect(await library()).toEqual(['Curated by an admin', 'Shared by an author']);

    const unpublished = await admin.patch<AdminPrompt>(
      `/rest/v1/admin/prompts/${created.body.id}`,
      {
        published: false,
      },
    );
    expect(unpublished.body).toMatchObject({ published: false, featured: false });
    expect(await library()).toEqual(['Shared by an author']);

    const filtered = await admin.get<AdminPromptsResponse>(
      '/rest/v1/admin/prompts?status=unpublished',
    );
    expect(filtered.body.items.map((p) => p.title)).toEqual(['Curated by an admin']);
    const searched = await admin.get<AdminPromptsResponse>('/rest/v1/admin/prompts?search=author');
    expect(searched.body.items.map((p) => p.title)).toEqual(['Shared by an author']);

    expect((await admin.del(`/rest/v1/admin/prompts/${created.body.id}`)).status).toBe(204);
    expect(await lastAudit(created.body.id)).toMatchObject({ action: 'delete_prompt' });
    expect((await admin.del(`/rest/v1/admin/prompts/${created.body.id}`)).status).toBe(404);
  });

  it('curates the scenarios cookbook the same way', async () => {
    const created = await admin.post<AdminScenario>('/rest/v1/admin/scenarios', {
      title: 'Plan a trip',
      steps: ['Where do you want to go?', 'Make a day-by-day plan'],
      published: false,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      steps: ['Where do you want to go?', 'Make a day-by-day plan'],
      published: false,
    });
    const cookbook = async () =>
      (await t.client().get<LibraryScenariosResponse>('/rest/v1/library/scenarios')).body.items;
    expect(await cookbook()).toEqual([]);
    const featured = await admin.patch<AdminScenario>(
      `/rest/v1/admin/scenarios/${created.body.id}`,
      {
        featured: true,
      },
    );
    expect(featured.body).toMatchObject({ published: true, featured: true });
    expect(await lastAudit(created.body.id)).toMatchObject({
      action: 'curate_scenario',
      table_name: 'scenarios',
    });
    expect((await cookbook()).map((s) => s.title)).toEqual(['Plan a trip']);
    const list = await admin.get<AdminScenariosResponse>(
      '/rest/v1/admin/scenarios?status=featured',
    );
    expect(list.body.total).toBe(1);
    const [row] = await t.db.select().from(scenarios);
    expect(row!.steps).toHaveLength(2);
  });

  it('answers 400 for bad input', async () => {
    for (const [url, body] of [
      ['/rest/v1/admin/prompts', { title: '', content: 'x' }],
      ['/rest/v1/admin/prompts', { title: 'x' }],
      ['/rest/v1/admin/scenarios', { title: 'x', steps: [] }],
      ['/rest/v1/admin/scenarios', { title: 'x', steps: ['a'], extra: 1 }],
    ] as const) {
      expect((await admin.post(url, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin.patch(`/rest/v1/admin/prompts/${sharedId}`, {})).status).toBe(400);
    expect((await admin.patch('/rest/v1/admin/prompts/nope', { published: true })).status).toBe(
      400,
    );
    expect((await admin.get('/rest/v1/admin/prompts?status=odd')).status).toBe(400);
  });
});
