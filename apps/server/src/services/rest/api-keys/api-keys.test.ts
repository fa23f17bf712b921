import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeySummary, TestApiKeyResult } from '@chorus/shared/api/keys';
import { keyMessages } from '@chorus/shared/messages';
import { profiles, userApiKeys } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

const CANARY = 'sk-canary-5f1e0c7d9a2b4e6f8a0c';
const logLines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    providerSim: true,
    env: { LOG_LEVEL: 'trace' },
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
});
afterAll(async () => {
  await t.close();
});

describe('/rest/v1/api-keys', () => {
  // One user for the format cases: a refused key changes nothing, and a sign-up costs a hash.
  let formatUser: ReturnType<TestApp['user']> | undefined;
  it('refuses guests', async () => {
    const guest = t.client();
    expect((await guest.get('/rest/v1/api-keys')).status).toBe(401);
    expect(
      (await guest.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-x' })).status,
    ).toBe(401);
    expect((await guest.del('/rest/v1/api-keys/openai')).status).toBe(401);
  });

  it.each([
    ['openai', '', keyMessages.emptyKey('OpenAI')],
    ['gemini', '   ', keyMessages.emptyKey('Gemini')],
    ['openai', 'abc-123', "Invalid OpenAI API key format - should start with 'sk-'"],
    ['deepseek', 'abc-123', "Invalid DeepSeek API key format - should start with 'sk-'"],
    ['perplexity', 'sk-123', "Invalid Perplexity API key format - should start with 'pplx-'"],
  ])('refuses a bad %s key %j with the spec message', async (provider, apiKey, message) => {
    formatUser ??= t.user('format@example.com');
    const ann = await formatUser;
    const res = await ann.request('PUT', `/rest/v1/api-keys/${provider}`, { api_key: apiKey });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: message });
  });

  it('answers an unknown provider or a malformed body with 400', async () => {
    const ann = await t.user('bad-provider@example.com');
    expect((await ann.request('PUT', '/rest/v1/api-keys/skynet', { api_key: 'k' })).status).toBe(
      400,
    );
    expect((await ann.request('PUT', '/rest/v1/api-keys/openai', '{oops')).status).toBe(400);
    expect((await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 42 })).status).toBe(
      400,
    );
    expect((await ann.del('/rest/v1/api-keys/skynet')).status).toBe(400);
  });

  it('stores a key encrypted and only ever answers its masked hint', async () => {
    const ann = await t.user('canary@example.com');
    const saved = await ann.request<ApiKeySummary>('PUT', '/rest/v1/api-keys/openai', {
      api_key: ` ${CANARY} `,
      model: 'gpt-4.1',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      provider: 'openai',
      key_hint: 'sk-…8a0c',
      model: 'gpt-4.1',
      source: 'user',
    });
    const listed = await ann.get<ApiKeySummary[]>('/rest/v1/api-keys');
    expect(listed.body.map((k) => k.provider)).toEqual(['openai']);

    const [row] = await t.db.select().from(userApiKeys).where(eq(userApiKeys.user_id, ann.id));
    expect(row!.api_key).not.toContain('canary');
    expect(t.deps.box.open(row!.api_key)).toBe(CANARY);

    for (const body of [saved.body, listed.body])
      expect(JSON.stringify(body)).not.toContain(CANARY);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain(CANARY);
  });

  it('replaces a key in place and removes it on delete', async () => {
    const ann = await t.user('replace@example.com');
    await ann.request('PUT', '/rest/v1/api-keys/mistral', { api_key: 'first-key-0001' });
    const second = await ann.request<ApiKeySummary>('PUT', '/rest/v1/api-keys/mistral', {
      api_key: 'second-key-0002',
    });
    expect(second.body.key_hint).toBe('…0002');
    expect((await ann.get<ApiKeySummary[]>('/rest/v1/api-keys')).body).toHaveLength(1);
    expect((await ann.del('/rest/v1/api-keys/mistral')).status).toBe(204);
    expect((await ann.get<ApiKeySummary[]>('/rest/v1/api-keys')).body).toEqual([]);
    const again = await ann.del('/rest/v1/api-keys/mistral');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ error: 'You have no Mistral key saved.' });
  });

  it("never lets a second user read, change or delete the first user's key", async () => {
    const ann = await t.user('owner@example.com');
    const bob = await t.user('intruder@example.com');
    await ann.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: 'sk-ant-owner-0001' });

    expect((await bob.get<ApiKeySummary[]>('/rest/v1/api-keys')).body).toEqual([]);
    expect((await bob.del('/rest/v1/api-keys/anthropic')).status).toBe(404);
    await bob.request('PUT', '/rest/v1/api-keys/anthropic', { api_key: 'sk-ant-bob-0002' });

    const annKeys = await ann.get<ApiKeySummary[]>('/rest/v1/api-keys');
    expect(annKeys.body).toEqual([
      expect.objectContaining({ provider: 'anthropic', key_hint: 'sk-…0001' }),
    ]);
  });
});

describe('POST /functions/v1/test-api-key', () => {
  it('tests a key against the provider (simulated) with the spec messages', async () => {
    const ann = await t.user('tester@example.com');
    const good = await ann.post<TestApiKeyResult>('/functions/v1/test-api-key', {
      provider: 'openai',
      apiKey: CANARY,
    });
    expect(good.body).toEqual({ valid: true, message: 'OpenAI API key is valid' });
    const bad = await ann.post<TestApiKeyResult>('/functions/v1/test-api-key', {
      provider: 'openai',
      apiKey: 'sk-invalid',
    });
    expect(bad.body).toEqual({ valid: false, message: keyMessages.invalidKey });
    const empty = await ann.post<TestApiKeyResult>('/functions/v1/test-api-key', {
      provider: 'gemini',
      apiKey: '',
    });
    expect(empty.body).toEqual({ valid: false, message: keyMessages.emptyTestKey });
    expect(JSON.stringify(good.body)).not.toContain(CANARY);
  });

  it("re-tests the caller's own saved key on the server, never anyone else's", async () => {
    const root = await t.user('stored-root@example.com');
    await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, root.id));
    const ann = await t.user('stored-ann@example.com');
    const bob = await t.user('stored-bob@example.com');
    const stored = (who: typeof ann, provider = 'openai') =>
      who.post<TestApiKeyResult & { error?: string }>('/functions/v1/test-api-key', {
        provider,
        stored: true,
      });

    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: CANARY });
    const good = await stored(ann);
    expect(good.body).toEqual({ valid: true, message: keyMessages.valid('OpenAI') });
    await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-invalid-0001' });
    expect((await stored(ann)).body).toEqual({ valid: false, message: keyMessages.invalidKey });

    // Bob has no key of his own: Ann's is not his to test, nor an admin's system or default key.
    for (const kind of ['system', 'default']) {
      const res = await root.request('PUT', `/rest/v1/admin/api-keys/${kind}/openai`, {
        api_key: `sk-${kind}-0003`,
      });
      expect(res.status).toBe(200);
    }
    expect((await bob.post('/functions/v1/copy-system-api-keys', {})).status).toBe(200);
    const none = await stored(bob);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe(keyMessages.noSavedKey('OpenAI'));
    expect(JSON.stringify(good.body)).not.toContain(CANARY);
    expect(logLines.join('')).not.toContain(CANARY);
  });

  it('refuses a key and stored: true together', async () => {
    const ann = await t.user('stored-both@example.com');
    const res = await ann.post('/functions/v1/test-api-key', {
      provider: 'openai',
      apiKey: 'sk-x',
      stored: true,
    });
    expect(res.status).toBe(400);
  });

  it('says Ollama needs no key and tests that its server answers', async () => {
    const ann = await t.user('ollama-test@example.com');
    const res = await ann.post<TestApiKeyResult>('/functions/v1/test-api-key', {
      provider: 'ollama',
    });
    const host = new URL(t.deps.config.providerBaseUrls.ollama).host;
    expect(res.body).toEqual({ valid: true, message: keyMessages.ollamaReachable(host, 3) });
  });

  it('refuses guests and unknown providers', async () => {
    expect(
      (await t.client().post('/functions/v1/test-api-key', { provider: 'openai', apiKey: 'sk-x' }))
        .status,
    ).toBe(401);
    const ann = await t.user('tester-2@example.com');
    const res = await ann.post<{ error: string }>('/functions/v1/test-api-key', {
      provider: 'skynet',
      apiKey: 'k',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('Unknown provider');
  });
});
