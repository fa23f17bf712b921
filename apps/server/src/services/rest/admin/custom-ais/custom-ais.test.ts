import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminCustomAi,
  AdminCustomAisResponse,
  CustomAi,
} from '@chorus/shared/api/custom-ais';
import { adminAuditLogs, customAis } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../test-users.ts';

type Refusal = { error: string; code: string };

let t: TestApp;
let admin: TestUser;
let plain: TestUser;
let shared: CustomAi;
let secret: CustomAi;

const audits = (recordId: string) =>
  t.db
    .select()
    .from(adminAuditLogs)
    .where(eq(adminAuditLogs.record_id, recordId))
    .orderBy(desc(adminAuditLogs.created_at));

beforeAll(async () => {
  t = await startTestApp();
  ({ admin, plain } = await signUpAdminTrio(t, 'cai-curation'));
  const create = async (name: string) =>
    (
      await plain.post<CustomAi>('/rest/v1/custom-ais', {
        name,
        provider: 'openai',
        system_prompt: `<b>${name}</b> instructions`,
        model: 'gpt-5-mini',
      })
    ).body;
  shared = await create('Shared helper');
  secret = await create('Private helper');
  const res = await plain.post(`/rest/v1/custom-ais/${shared.id}/share`, { category: 'Writing' });
  expect(res.status).toBe(200);
});
afterAll(() => t.close());

describe('/rest/v1/admin/custom-ais', () => {
  it('refuses guests with 401 and plain users with 403 on every route', async () => {
    const guest = t.client();
    const calls = [
      ['GET', '/rest/v1/admin/custom-ais', undefined],
      ['GET', '/rest/v1/admin/custom-ais?status=published', undefined],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/publish`, { featured: true }],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/reject`, { note: 'No.' }],
    ] as const;
    for (const [method, url, body] of calls) {
      expect((await guest.request(method, url, body)).status, `${method} ${url}`).toBe(401);
      const refused = await plain.request<Refusal>(method, url, body);
      expect(refused.status, `${method} ${url}`).toBe(403);
    }
    const [row] = await t.db.select().from(customAis).where(eq(customAis.id, shared.id));
    expect(row).toMatchObject({ share_status: 'submitted', featured: false });
    expect(await audits(shared.id)).toEqual([]);
  });

  it('lists what owners shared, never their private ones, with the instructions as text', async () => {
    const res = await admin.get<AdminCustomAisResponse>('/rest/v1/admin/custom-ais');
    expect(res.status).toBe(200);
    expect(res.body.custom_ais.map((ai) => ai.name)).toEqual(['Shared helper']);
    expect(res.body.custom_ais[0]).toMatchObject({
      user_id: plain.id,
      author_email: 'cai-curation-plain@example.com',
      system_prompt: '<b>Shared helper</b> instructions',
      model: 'gpt-5-mini',
      category: 'Writing',
      share_status: 'submitted',
      featured: false,
      published_at: null,
      share_requested_at: expect.any(String),
    });
    const published = await admin.get<AdminCustomAisResponse>(
      '/rest/v1/admin/custom-ais?status=published',
    );
    expect(published.body.custom_ais).toEqual([]);
  });

  it('publishes, features and rejects, each written to the audit log', async () => {
    const published = await admin.post<AdminCustomAi>(
      `/rest/v1/admin/custom-ais/${shared.id}/publish`,
      {},
    );
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ share_status: 'published', featured: false });
    const publishedAt = published.body.published_at;
    expect(publishedAt).toEqual(expect.any(String));

    const featured = await admin.post<AdminCustomAi>(
      `/rest/v1/admin/custom-ais/${shared.id}/publish`,
      { featured: true },
    );
    expect(featured.body).toMatchObject({ featured: true, published_at: publishedAt });
    const list = await admin.get<AdminCustomAisResponse>(
      '/rest/v1/admin/custom-ais?status=published',
    );
    expect(list.body.custom_ais.map((ai) => ai.id)).toEqual([shared.id]);

    const rejected = await admin.post<AdminCustomAi>(
      `/rest/v1/admin/custom-ais/${shared.id}/reject`,
      { note: '  Say what it is for.  ' },
    );
    expect(rejected.body).toMatchObject({
      share_status: 'rejected',
      share_note: '',
      featured: false,
      published_at: null,
    });
    // The owner reads the note; the curators' lists no longer hold it.
    const mine = await plain.get<CustomAi>(`/rest/v1/custom-ais/${shared.id}`);
    expect(mine.body).toMatchObject({
      share_status: 'rejected',
      share_note: 'Say what it is for.',
    });
    for (const status of ['submitted', 'published']) {
      const res = await admin.get<AdminCustomAisResponse>(
        `/rest/v1/admin/custom-ais?status=${status}`,
      );
      expect(res.body.custom_ais).toEqual([]);
    }

    const logged = await audits(shared.id);
    expect(logged.map((row) => [row.admin_id, row.action, row.table_name])).toEqual([
      [admin.id, 'reject_custom_ai', 'custom_ais'],
      [admin.id, 'publish_custom_ai', 'custom_ais'],
      [admin.id, 'publish_custom_ai', 'custom_ais'],
    ]);
    expect(logged[0]!.details).toMatchObject({
      name: 'Shared helper',
      note: 'Say what it is for.',
      previous: { share_status: 'published', featured: true },
    });
  });

  it('answers 404 for a custom AI nobody shared, and touches nothing', async () => {
    for (const id of [secret.id, shared.id, '00000000-0000-4000-8000-000000000000']) {
      for (const [action, body] of [
        ['publish', { featured: true }],
        ['reject', { note: 'No.' }],
      ] as const) {
        const res = await admin.post<Refusal>(`/rest/v1/admin/custom-ais/${id}/${action}`, body);
        expect(res.status, `${action} ${id}`).toBe(404);
        expect(res.body.code).toBe('custom_ais:not_shared');
      }
    }
    const [row] = await t.db.select().from(customAis).where(eq(customAis.id, secret.id));
    expect(row).toMatchObject({ share_status: 'private', featured: false });
    expect(await audits(secret.id)).toEqual([]);
  });

  it('refuses bad input with typed 400s', async () => {
    const cases = [
      ['GET', '/rest/v1/admin/custom-ais?status=private', undefined],
      ['POST', `/rest/v1/admin/custom-ais/not-an-id/publish`, {}],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/publish`, { featured: 'yes' }],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/publish`, { published: true }],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/reject`, {}],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/reject`, { note: '   ' }],
      ['POST', `/rest/v1/admin/custom-ais/${shared.id}/reject`, { note: 'x'.repeat(501) }],
    ] as const;
    for (const [method, url, body] of cases) {
      const res = await admin.request<Refusal>(method, url, body);
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
  });
});
