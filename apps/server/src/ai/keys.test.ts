import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerIds, type ProviderId } from '@chorus/shared/providers';
import { maskKey } from '../crypto/secret-box.ts';
import { UserApiKeysRepository } from '../db/repositories/api-keys.ts';
import { AdminKeysRepository, SystemKeysRepository } from '../db/repositories/system-keys.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { describeProviderKeys, keysChanged, resolveProviderKey } from './keys.ts';

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  t = await startTestApp();
  adminId = (await t.user('resolve-admin@example.com')).id;
});
afterAll(() => t.close());

// These tests write keys through the repositories, past the routes that announce changes; each
// lookup here starts from an emptied cache. The cache itself is tested at the end.
const resolve = async (userId: string, provider: ProviderId, explicitKey?: string) => {
  await keysChanged(t.deps);
  return resolveProviderKey(t.deps, { userId, provider, explicitKey });
};
const admin = () => new AdminKeysRepository(t.db, adminId);
const sealed = (key: string) => ({ sealed: t.deps.box.seal(key), hint: maskKey(key) });
const setAdminKey = (provider: ProviderId, kind: 'system' | 'default', key: string) =>
  admin().upsertKey({ provider, kind, ...sealed(key), model: null });
const setOwnKey = (userId: string, provider: ProviderId, key: string) =>
  new UserApiKeysRepository(t.db, userId).upsert({ provider, ...sealed(key), model: null });

// Each test works on providers of its own: admin keys and switches are shared by every user.
describe('resolveProviderKey', () => {
  it('takes the explicit key, then the own key, then the granted default, then the system key', async () => {
    const ann = (await t.user('resolve-order@example.com')).id;
    await setAdminKey('openai', 'system', 'sk-system-openai-0001');
    await setAdminKey('openai', 'default', 'sk-default-openai-0001');
    await setOwnKey(ann, 'openai', 'sk-own-openai-0001');

    expect(await resolve(ann, 'openai')).toEqual({ apiKey: 'sk-own-openai-0001', source: 'user' });
    expect(await resolve(ann, 'openai', '  sk-explicit-0001 ')).toEqual({
      apiKey: 'sk-explicit-0001',
      source: 'explicit',
    });

    await new UserApiKeysRepository(t.db, ann).remove('openai');
    // The default key serves only users it was granted to.
    expect(await resolve(ann, 'openai')).toEqual({
      apiKey: 'sk-system-openai-0001',
      source: 'system',
    });
    await new UserApiKeysRepository(t.db, ann).grantDefaultKeys();
    expect(await resolve(ann, 'openai')).toEqual({
      apiKey: 'sk-default-openai-0001',
      source: 'default',
    });

    await admin().removeKey('openai', 'default');
    expect(await resolve(ann, 'openai')).toEqual({
      apiKey: 'sk-system-openai-0001',
      source: 'system',
    });
    await admin().removeKey('openai', 'system');
    expect(await resolve(ann, 'openai')).toBeNull();
  });

  it('resolves nothing for a disabled provider, whatever keys exist', async () => {
    const ann = (await t.user('resolve-disabled@example.com')).id;
    await setAdminKey('mistral', 'system', 'mistral-system-0001');
    await setOwnKey(ann, 'mistral', 'mistral-own-0001');

    await admin().setProviderEnabled('mistral', false);
    expect(await resolve(ann, 'mistral')).toBeNull();
    expect(await resolve(ann, 'mistral', 'mistral-explicit-0001')).toBeNull();

    await admin().setProviderEnabled('mistral', true);
    expect(await resolve(ann, 'mistral')).toMatchObject({ source: 'user' });
  });

  it('lets Ollama run without a key, and uses one when there is one', async () => {
    const ann = (await t.user('resolve-ollama@example.com')).id;
    expect(await resolve(ann, 'ollama')).toEqual({ apiKey: undefined, source: 'none' });
    await setOwnKey(ann, 'ollama', 'ollama-token-0001');
    expect(await resolve(ann, 'ollama')).toEqual({ apiKey: 'ollama-token-0001', source: 'user' });
    await admin().setProviderEnabled('ollama', false);
    expect(await resolve(ann, 'ollama')).toBeNull();
    await admin().setProviderEnabled('ollama', true);
  });

  it('skips a stored key that can no longer be opened and falls back to the next source', async () => {
    const ann = (await t.user('resolve-broken@example.com')).id;
    await setAdminKey('perplexity', 'system', 'pplx-system-0001');
    await new UserApiKeysRepository(t.db, ann).upsert({
      provider: 'perplexity',
      sealed: 'v1.not.really-sealed',
      hint: 'pplx-…dead',
      model: null,
    });
    expect(await resolve(ann, 'perplexity')).toEqual({
      apiKey: 'pplx-system-0001',
      source: 'system',
    });
  });

  it("never resolves another user's own or granted key", async () => {
    const owner = (await t.user('resolve-owner@example.com')).id;
    const other = (await t.user('resolve-other@example.com')).id;
    await setOwnKey(owner, 'deepseek', 'sk-owner-deepseek-0001');
    await setAdminKey('openrouter', 'default', 'sk-or-default-0001');
    await new UserApiKeysRepository(t.db, owner).grantDefaultKeys();

    expect(await resolve(owner, 'deepseek')).toMatchObject({ apiKey: 'sk-owner-deepseek-0001' });
    expect(await resolve(owner, 'openrouter')).toMatchObject({ source: 'default' });
    expect(await resolve(other, 'deepseek')).toBeNull();
    expect(await resolve(other, 'openrouter')).toBeNull();
  });
});

describe('describeProviderKeys', () => {
  it('tells for all eight providers what resolution would pick, by hint only', async () => {
    const ann = (await t.user('describe@example.com')).id;
    await setAdminKey('gemini', 'system', 'AIza-gemini-system-0001');
    await setAdminKey('anthropic', 'system', 'sk-ant-system-0001');
    await setOwnKey(ann, 'anthropic', 'sk-ant-own-0001');
    await admin().setProviderEnabled('deepseek', false);

    await keysChanged(t.deps);
    const described = await describeProviderKeys(t.deps, { userId: ann, providerIds });
    expect(described.map((d) => d.provider)).toEqual([...providerIds]);
    const byId = Object.fromEntries(described.map((d) => [d.provider, d]));
    expect(byId.gemini).toEqual({
      provider: 'gemini',
      enabled: true,
      source: 'system',
      key_hint: maskKey('AIza-gemini-system-0001'),
    });
    expect(byId.anthropic).toMatchObject({ source: 'user', key_hint: 'sk-…0001' });
    expect(byId.deepseek).toEqual({
      provider: 'deepseek',
      enabled: false,
      source: null,
      key_hint: null,
    });
    expect(byId.ollama).toMatchObject({ enabled: true, source: 'none', key_hint: null });
    expect(JSON.stringify(described)).not.toMatch(/system-0001|own-0001/);

    for (const d of described) {
      const resolved = await resolve(ann, d.provider);
      expect(resolved?.source ?? null, d.provider).toBe(d.source);
    }
    await admin().setProviderEnabled('deepseek', true);
    expect(await new SystemKeysRepository(t.db).disabledProviders()).toEqual(new Set());
  });
});

describe('the key cache', () => {
  it('serves a user from memory until their keys change, then from the database again', async () => {
    const ann = (await t.user('cache-keys@example.com')).id;
    const ben = (await t.user('cache-keys-other@example.com')).id;
    await setOwnKey(ann, 'mistral', 'mistral-own-cache-0001');
    await keysChanged(t.deps, ann);
    expect(await resolveProviderKey(t.deps, { userId: ann, provider: 'mistral' })).toMatchObject({
      apiKey: 'mistral-own-cache-0001',
    });

    // Written past the routes: the cached answer stands until someone announces the change.
    await setOwnKey(ann, 'mistral', 'mistral-own-cache-0002');
    expect(await resolveProviderKey(t.deps, { userId: ann, provider: 'mistral' })).toMatchObject({
      apiKey: 'mistral-own-cache-0001',
    });
    await keysChanged(t.deps, ben);
    expect(await resolveProviderKey(t.deps, { userId: ann, provider: 'mistral' })).toMatchObject({
      apiKey: 'mistral-own-cache-0001',
    });
    await keysChanged(t.deps, ann);
    expect(await resolveProviderKey(t.deps, { userId: ann, provider: 'mistral' })).toMatchObject({
      apiKey: 'mistral-own-cache-0002',
    });
  });

  it("drops every user's cached keys when an admin key changes", async () => {
    const ann = (await t.user('cache-keys-admin@example.com')).id;
    await keysChanged(t.deps);
    expect(await resolveProviderKey(t.deps, { userId: ann, provider: 'openrouter' })).toBeNull();
    await setAdminKey('openrouter', 'system', 'sk-or-cache-system-0001');
    await keysChanged(t.deps);
    expect(await resolveProviderKey(t.deps, { userId: ann, provider: 'openrouter' })).toMatchObject(
      { source: 'system' },
    );
    await admin().removeKey('openrouter', 'system');
    await keysChanged(t.deps);
  });
});
