import { Writable } from 'node:stream';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminApiKeySummary, AdminApiKeysResponse } from '@chorus/shared/api/admin-keys';
import type {
  AdminKeyAvailability,
  ApiKeySummary,
  EnabledProviders,
  ProviderAvailability,
} from '@chorus/shared/api/keys';
import { keyMessages, messages } from '@chorus/shared/messages';
import { providerIds } from '@chorus/shared/providers';
import { adminAuditLogs, emailOutbox, systemApiKeys } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../test-users.ts';
import { resolveProviderKey } from '../../../../ai/keys.ts';

const CANARY = 'sk-admin-canary-9c8b7a6f5e4d3c2b';
const logLines: string[] = [];
const seen: unknown[] = [];
let t: TestApp;
let root: TestUser;
let admin: TestUser;
let plain: TestUser;

/** Every answer a test reads is kept, so the canary check covers them all. */
const keep = async <T extends { body: unknown }>(res: Promise<T>): Promise<T> => {
  const r = await res;
  seen.push(r.body);
  return r;
};

beforeAll(async () => {
  t = await startTestApp({
    env: { LOG_LEVEL: 'trace' },
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
  ({ root, admin, plain } = await signUpAdminTrio(t, 'keys'));
});
afterAll(() => t.close());

const auditFor = (recordId: string) =>
  t.db
    .select()
    .from(adminAuditLogs)
    .where(eq(adminAuditLogs.record_id, recordId))
    .orderBy(desc(adminAuditLogs.created_at));

describe('admin key routes guard', () => {
  const calls = [
    ['GET', '/rest/v1/admin/api-keys', undefined],
    ['PUT', '/rest/v1/admin/api-keys/system/openai', { api_key: 'sk-guard-0001' }],
    ['DELETE', '/rest/v1/admin/api-keys/system/openai', undefined],
    ['PATCH', '/rest/v1/admin/providers/openai', { enabled: false }],
  ] as const;

  it.each(calls)(
    'refuses %s %s to a guest with 401 and a plain user with 403',
    async (method, url, body) => {
      const guest = await t.client().request(method, url, body);
      expect(guest.status).toBe(401);
      expect(guest.body).toMatchObject({ error: messages.auth.required });
      expect((await plain.request(method, url, body)).status).toBe(403);
      expect(await t.db.select().from(systemApiKeys)).toEqual([]);
      expect(await t.db.select().from(adminAuditLogs)).toEqual([]);
    },
  );
});

describe('admin key management', () => {
  it('lists all eight providers enabled and no keys on a fresh workspace', async () => {
    const res = await keep(admin.get<AdminApiKeysResponse>('/rest/v1/admin/api-keys'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      keys: [],
      providers: providerIds.map((provider) => ({ provider, enabled: true })),
    });
  });

  it.each([
    ['openai', '', keyMessages.emptyKey('OpenAI')],
    ['openai', 'abc-123', "Invalid OpenAI API key format - should start with 'sk-'"],
    ['deepseek', 'abc-123', "Invalid DeepSeek API key format - should start with 'sk-'"],
    ['perplexity', 'sk-123', "Invalid Perplexity API key format - should start with 'pplx-'"],
  ])('refuses a bad %s key %j with the spec message', async (provider, apiKey, message) => {
    const res = await admin.request('PUT', `/rest/v1/admin/api-keys/system/${provider}`, {
      api_key: apiKey,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message });
  });

  it('answers an unknown kind, provider or body with 400', async () => {
    for (const [method, url, body] of [
      ['PUT', '/rest/v1/admin/api-keys/master/openai', { api_key: 'sk-x-0001' }],
      ['PUT', '/rest/v1/admin/api-keys/system/skynet', { api_key: 'sk-x-0001' }],
      ['PUT', '/rest/v1/admin/api-keys/system/openai', { api_key: 7 }],
      ['DELETE', '/rest/v1/admin/api-keys/master/openai', undefined],
      ['PATCH', '/rest/v1/admin/providers/skynet', { enabled: false }],
      ['PATCH', '/rest/v1/admin/providers/openai', { enabled: 'no' }],
    ] as const) {
      expect((await admin.request(method, url, body)).status, `${method} ${url}`).toBe(400);
    }
  });

  it('stores a system key sealed, answers only its hint and audits the change', async () => {
    const saved = await keep(
      admin.request<AdminApiKeySummary>('PUT', '/rest/v1/admin/api-keys/system/openai', {
        api_key: ` ${CANARY} `,
        model: 'gpt-4.1',
      }),
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      provider: 'openai',
      kind: 'system',
      key_hint: 'sk-…3c2b',
      model: 'gpt-4.1',
    });

    const [row] = await t.db
      .select()
      .from(systemApiKeys)
      .where(eq(systemApiKeys.provider, 'openai'));
    expect(row!.api_key).not.toContain('canary');
    expect(t.deps.box.open(row!.api_key)).toBe(CANARY);

    const [audit] = await auditFor(row!.id);
    expect(audit).toMatchObject({
      admin_id: admin.id,
      action: 'set_api_key',
      table_name: 'system_api_keys',
      record_id: row!.id,
      details: { provider: 'openai', kind: 'system', key_hint: 'sk-…3c2b', model: 'gpt-4.1' },
    });

    const listed = await keep(root.get<AdminApiKeysResponse>('/rest/v1/admin/api-keys'));
    expect(listed.body.keys).toEqual([saved.body]);
  });

  it('makes the system key available to every user, by hint only', async () => {
    const ann = await t.user('keys-ann@example.com');
    const system = await keep(
      ann.post<AdminKeyAvailability>('/functions/v1/get-system-api-key', { provider: 'openai' }),
    );
    expect(system.body).toEqual({ provider: 'openai', available: true, api_key: 'sk-…3c2b' });
    const none = await keep(
      ann.post<AdminKeyAvailability>('/functions/v1/get-system-api-key', { provider: 'gemini' }),
    );
    expect(none.body).toEqual({ provider: 'gemini', available: false, api_key: null });

    const availability = await keep(
      ann.get<ProviderAvailability[]>('/rest/v1/api-keys/availability'),
    );
    expect(availability.body.find((a) => a.provider === 'openai')).toEqual({
      provider: 'openai',
      enabled: true,
      source: 'system',
      key_hint: 'sk-…3c2b',
    });
    expect(await resolveProviderKey(t.deps, { userId: ann.id, provider: 'openai' })).toEqual({
      apiKey: CANARY,
      source: 'system',
    });
  });

  it('serves a default key to the users it is granted to, and rotates it for all at once', async () => {
    const put = await keep(
      admin.request<AdminApiKeySummary>('PUT', '/rest/v1/admin/api-keys/default/anthropic', {
        api_key: 'sk-ant-default-0001',
      }),
    );
    expect(put.status).toBe(200);
    const ben = await t.user('keys-ben@example.com');
    const before = await keep(
      ben.post<AdminKeyAvailability>('/functions/v1/get-default-api-key', {
        provider: 'anthropic',
      }),
    );
    expect(before.body).toEqual({ provider: 'anthropic', available: false, api_key: null });

    expect((await keep(ben.post('/functions/v1/copy-system-api-keys'))).body).toEqual({
      copied: ['anthropic'],
    });
    const after = await keep(
      ben.post<AdminKeyAvailability>('/functions/v1/get-default-api-key', {
        provider: 'anthropic',
      }),
    );
    expect(after.body).toEqual({ provider: 'anthropic', available: true, api_key: 'sk-…0001' });
    const listed = await keep(ben.get<ApiKeySummary[]>('/rest/v1/api-keys'));
    expect(listed.body).toEqual([
      expect.objectContaining({ provider: 'anthropic', source: 'default', key_hint: 'sk-…0001' }),
    ]);

    await admin.request('PUT', '/rest/v1/admin/api-keys/default/anthropic', {
      api_key: 'sk-ant-rotated-0002',
    });
    expect(await resolveProviderKey(t.deps, { userId: ben.id, provider: 'anthropic' })).toEqual({
      apiKey: 'sk-ant-rotated-0002',
      source: 'default',
    });
    // A user cannot remove an admin key through their own key routes.
    expect((await ben.del('/rest/v1/api-keys/anthropic')).status).toBe(404);

    const [granted] = await t.db
      .select()
      .from(systemApiKeys)
      .where(eq(systemApiKeys.provider, 'anthropic'));
    expect((await admin.del('/rest/v1/admin/api-keys/default/anthropic')).status).toBe(204);
    const gone = await admin.del('/rest/v1/admin/api-keys/default/anthropic');
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: 'There is no default key for Anthropic.' });
    expect(await resolveProviderKey(t.deps, { userId: ben.id, provider: 'anthropic' })).toBeNull();
    const deletions = await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.action, 'delete_api_key'));
    expect(deletions).toEqual([
      expect.objectContaining({
        admin_id: admin.id,
        record_id: granted!.id,
        details: { provider: 'anthropic', kind: 'default', key_hint: 'sk-…0002' },
      }),
    ]);
  });

  it('switches a provider off and on for everyone, audited, with the enabled list following at once', async () => {
    const ann = await t.user('keys-switch@example.com');
    const first = await keep(ann.post<EnabledProviders>('/functions/v1/get-enabled-providers'));
    expect(first.body).toEqual({ providers: [...providerIds] });

    const off = await keep(admin.patch('/rest/v1/admin/providers/openai', { enabled: false }));
    expect(off).toMatchObject({ status: 200, body: { provider: 'openai', enabled: false } });
    const cached = await keep(ann.post<EnabledProviders>('/functions/v1/get-enabled-providers'));
    expect(cached.body.providers).toEqual(providerIds.filter((p) => p !== 'openai'));

    expect(
      (
        await keep(
          ann.post<AdminKeyAvailability>('/functions/v1/get-system-api-key', {
            provider: 'openai',
          }),
        )
      ).body,
    ).toEqual({ provider: 'openai', available: false, api_key: null });
    const availability = await keep(
      ann.get<ProviderAvailability[]>('/rest/v1/api-keys/availability'),
    );
    expect(availability.body.find((a) => a.provider === 'openai')).toEqual({
      provider: 'openai',
      enabled: false,
      source: null,
      key_hint: null,
    });
    const listed = await keep(admin.get<AdminApiKeysResponse>('/rest/v1/admin/api-keys'));
    expect(listed.body.providers.find((p) => p.provider === 'openai')).toEqual({
      provider: 'openai',
      enabled: false,
    });

    await admin.patch('/rest/v1/admin/providers/openai', { enabled: true });
    expect(
      (await ann.post<EnabledProviders>('/functions/v1/get-enabled-providers')).body.providers,
    ).toEqual([...providerIds]);
    expect((await auditFor('openai')).map((a) => [a.action, a.admin_id, a.details])).toEqual([
      ['enable_provider', admin.id, { provider: 'openai', enabled: true }],
      ['disable_provider', admin.id, { provider: 'openai', enabled: false }],
    ]);
  });

  it("never lets a second user see, use or remove the first user's own key", async () => {
    const owner = await t.user('keys-owner@example.com');
    const other = await t.user('keys-other@example.com');
    await owner.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'mistral-owner-0001' });

    expect((await keep(other.get<ApiKeySummary[]>('/rest/v1/api-keys'))).body).toEqual([]);
    const otherView = await keep(
      other.get<ProviderAvailability[]>('/rest/v1/api-keys/availability'),
    );
    expect(otherView.body.find((a) => a.provider === 'mistral')).toMatchObject({
      source: null,
      key_hint: null,
    });
    expect(
      (
        await keep(
          other.post<AdminKeyAvailability>('/functions/v1/get-default-api-key', {
            provider: 'mistral',
          }),
        )
      ).body,
    ).toMatchObject({ available: false });
    expect(await resolveProviderKey(t.deps, { userId: other.id, provider: 'mistral' })).toBeNull();
    expect((await other.del('/rest/v1/api-keys/mistral')).status).toBe(404);

    const ownerView = await keep(
      owner.get<ProviderAvailability[]>('/rest/v1/api-keys/availability'),
    );
    expect(ownerView.body.find((a) => a.provider === 'mistral')).toMatchObject({
      source: 'user',
      key_hint: '…0001',
    });
  });

  it('lets guests call none of the key functions, and see only which providers are on', async () => {
    const guest = t.client();
    for (const url of ['/functions/v1/get-default-api-key', '/functions/v1/get-system-api-key']) {
      expect((await guest.post(url, { provider: 'openai' })).status, url).toBe(401);
    }
    const enabled = await guest.post<EnabledProviders>('/functions/v1/get-enabled-providers');
    expect(enabled.status).toBe(200);
    expect(Object.keys(enabled.body)).toEqual(['providers']);
    expect((await guest.get('/rest/v1/api-keys/availability')).status).toBe(401);
    const bad = await plain.post<{ error: string }>('/functions/v1/get-system-api-key', {
      provider: 'skynet',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Unknown provider');
  });

  it('never shows the admin canary key in any answer, log line, outbox or audit row', async () => {
    expect(seen.length).toBeGreaterThan(10);
    for (const body of seen) expect(JSON.stringify(body)).not.toContain(CANARY);
    expect(logLines.length).toBeGreaterThan(0);
    const logged = logLines.join('');
    for (const secret of [CANARY, 'sk-ant-default-0001', 'sk-ant-rotated-0002']) {
      expect(logged).not.toContain(secret);
    }
    expect(JSON.stringify(await t.db.select().from(emailOutbox))).not.toContain(CANARY);
    expect(JSON.stringify(await t.db.select().from(adminAuditLogs))).not.toContain(CANARY);
    const doc = await t.client().get('/rest/v1/openapi.json');
    expect(JSON.stringify(doc.body)).toContain('/admin/api-keys/{kind}/{provider}');
  });
});
