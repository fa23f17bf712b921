import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopySystemKeysResponse } from '@chorus/shared/api/rpc';
import { messages } from '@chorus/shared/messages';
import type { ProviderId } from '@chorus/shared/providers';
import { maskKey } from '../../../crypto/secret-box.ts';
import { SystemKeysRepository } from '../../../db/repositories/system-keys.ts';
import { systemApiKeys, userApiKeyGrants, userApiKeys } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { keysChanged, resolveProviderKey } from '../../../ai/keys.ts';

const endpoint = '/functions/v1/copy-system-api-keys';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const keysOf = (userId: string) =>
  t.db.select().from(userApiKeys).where(eq(userApiKeys.user_id, userId));
const grantsOf = (userId: string) =>
  t.db.select().from(userApiKeyGrants).where(eq(userApiKeyGrants.user_id, userId));
const resolve = (userId: string, provider: ProviderId) =>
  resolveProviderKey(t.deps, { userId, provider });
/** As the admin keys route does: write the key, then drop every user's cached keys. */
const setAdminKey = async (provider: ProviderId, kind: 'system' | 'default', key: string) => {
  await new SystemKeysRepository(t.db).upsert({
    provider,
    kind,
    sealed: t.deps.box.seal(key),
    hint: maskKey(key),
    model: null,
  });
  await keysChanged(t.deps);
};
const deleteAdminKeys = async (provider: ProviderId) => {
  await t.db.delete(systemApiKeys).where(eq(systemApiKeys.provider, provider));
  await keysChanged(t.deps);
};

// Admin keys are shared by every user, so the tests run in order: first none, then some.
describe('POST /functions/v1/copy-system-api-keys', () => {
  it('answers a guest with 401 and the spec message', async () => {
    const res = await t.client().post(endpoint);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: messages.auth.required });
  });

  it('grants nothing while no default keys exist', async () => {
    const ann = await t.user('copy-none@example.com');
    const res = await ann.post<CopySystemKeysResponse>(endpoint);
    expect(res).toMatchObject({ status: 200, body: { copied: [] } });
    expect(await grantsOf(ann.id)).toEqual([]);
  });

  describe('with default and system keys', () => {
    beforeAll(async () => {
      await setAdminKey('openai', 'default', 'sk-default-openai-0001');
      await setAdminKey('anthropic', 'default', 'sk-ant-default-0001');
      await setAdminKey('gemini', 'system', 'AIza-system-gemini-0001');
    });

    it('grants each default key once by reference, never a system key, never a copy', async () => {
      const ann = await t.user('copy-grant@example.com');
      const res = await ann.post<CopySystemKeysResponse>(endpoint);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ copied: ['anthropic', 'openai'] });
      expect(JSON.stringify(res.body)).not.toMatch(/default-|v1\.|api_key/);

      // No ciphertext is duplicated: the user's key table stays empty, the grants point at the
      // admin rows.
      expect(await keysOf(ann.id)).toEqual([]);
      const grants = await grantsOf(ann.id);
      const adminRows = await t.db.select().from(systemApiKeys);
      const granted = grants.map((g) => adminRows.find((k) => k.id === g.system_key_id));
      expect(granted.map((k) => [k?.provider, k?.kind]).sort()).toEqual([
        ['anthropic', 'default'],
        ['openai', 'default'],
      ]);

      expect(await resolve(ann.id, 'openai')).toEqual({
        apiKey: 'sk-default-openai-0001',
        source: 'default',
      });

      const again = await ann.post<CopySystemKeysResponse>(endpoint);
      expect(again).toMatchObject({ status: 200, body: { copied: [] } });
      expect(await grantsOf(ann.id)).toEqual(grants);
    });

    it("keeps the user's own key untouched and first in line", async () => {
      const bob = await t.user('copy-own@example.com');
      const [own] = await t.db
        .insert(userApiKeys)
        .values({
          user_id: bob.id,
          provider: 'openai',
          api_key: t.deps.box.seal('sk-bob-own-0001'),
          key_hint: 'sk-…0001',
        })
        .returning();

      const res = await bob.post<CopySystemKeysResponse>(endpoint);
      expect(res.body).toEqual({ copied: ['anthropic', 'openai'] });
      expect(await keysOf(bob.id)).toEqual([own]);
      expect(await resolve(bob.id, 'openai')).toEqual({
        apiKey: 'sk-bob-own-0001',
        source: 'user',
      });
      expect(await resolve(bob.id, 'anthropic')).toMatchObject({ source: 'default' });
    });

    it("one user's call leaves another user's grants alone", async () => {
      const first = await t.user('copy-first@example.com');
      await first.post(endpoint);
      const before = await grantsOf(first.id);

      const second = await t.user('copy-second@example.com');
      const res = await second.post<CopySystemKeysResponse>(endpoint);
      expect(res.body).toEqual({ copied: ['anthropic', 'openai'] });
      expect(await grantsOf(first.id)).toEqual(before);
      expect((await grantsOf(second.id)).every((g) => g.user_id === second.id)).toBe(true);
    });

    it('follows a rotated admin key at once, and loses the grant when the key is deleted', async () => {
      const cara = await t.user('copy-rotate@example.com');
      await cara.post(endpoint);
      expect(await resolve(cara.id, 'anthropic')).toMatchObject({
        apiKey: 'sk-ant-default-0001',
      });

      await setAdminKey('anthropic', 'default', 'sk-ant-rotated-0002');
      expect(await resolve(cara.id, 'anthropic')).toEqual({
        apiKey: 'sk-ant-rotated-0002',
        source: 'default',
      });

      await deleteAdminKeys('anthropic');
      expect((await grantsOf(cara.id)).length).toBe(1);
      expect(await resolve(cara.id, 'anthropic')).toBeNull();

      // A new default key is a new grant: nobody holds it until they ask.
      await setAdminKey('anthropic', 'default', 'sk-ant-fresh-0003');
      expect(await resolve(cara.id, 'anthropic')).toBeNull();
      const res = await cara.post<CopySystemKeysResponse>(endpoint);
      expect(res.body).toEqual({ copied: ['anthropic'] });
      expect(await resolve(cara.id, 'anthropic')).toMatchObject({ apiKey: 'sk-ant-fresh-0003' });
    });
  });
});
