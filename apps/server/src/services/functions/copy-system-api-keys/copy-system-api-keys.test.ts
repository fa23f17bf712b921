import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopySystemKeysResponse } from '@chorus/shared/api/rpc';
import { messages } from '@chorus/shared/messages';
import { systemApiKeys, userApiKeys } from '../../../db/schema.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

const endpoint = '/functions/v1/copy-system-api-keys';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const keysOf = (userId: string) =>
  t.db
    .select()
    .from(userApiKeys)
    .where(eq(userApiKeys.user_id, userId))
    .orderBy(userApiKeys.provider);

// System keys are shared by every user, so the tests run in order: first none, then some.
describe('POST /functions/v1/copy-system-api-keys', () => {
  it('answers a guest with 401 and the spec message', async () => {
    const res = await t.client().post(endpoint);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: messages.auth.required });
  });

  it('copies nothing while no default keys exist', async () => {
    const ann = await t.user('copy-none@example.com');
    const res = await ann.post<CopySystemKeysResponse>(endpoint);
    expect(res).toMatchObject({ status: 200, body: { copied: [] } });
    expect(await keysOf(ann.id)).toEqual([]);
  });

  describe('with default and system keys', () => {
    beforeAll(async () => {
      await t.db.insert(systemApiKeys).values([
        {
          provider: 'openai',
          kind: 'default',
          api_key: 'cipher-default-openai',
          key_hint: 'sk-…op1',
        },
        {
          provider: 'anthropic',
          kind: 'default',
          api_key: 'cipher-default-anthropic',
          key_hint: 'sk-…an1',
          model: 'claude-default',
        },
        { provider: 'gemini', kind: 'system', api_key: 'cipher-system-gemini', key_hint: 'AI…ge1' },
      ]);
    });

    it('grants each default key once, never a system key, and never returns a key', async () => {
      const ann = await t.user('copy-grant@example.com');
      const res = await ann.post<CopySystemKeysResponse>(endpoint);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ copied: ['anthropic', 'openai'] });
      expect(JSON.stringify(res.body)).not.toMatch(/cipher-|api_key/);

      const rows = await keysOf(ann.id);
      expect(rows.map((r) => [r.provider, r.source, r.api_key, r.key_hint, r.model])).toEqual([
        ['anthropic', 'default', 'cipher-default-anthropic', 'sk-…an1', 'claude-default'],
        ['openai', 'default', 'cipher-default-openai', 'sk-…op1', null],
      ]);

      const again = await ann.post<CopySystemKeysResponse>(endpoint);
      expect(again).toMatchObject({ status: 200, body: { copied: [] } });
      expect(await keysOf(ann.id)).toEqual(rows);
    });

    it('keeps a key the user already has for a provider', async () => {
      const bob = await t.user('copy-own@example.com');
      const [own] = await t.db
        .insert(userApiKeys)
        .values({
          user_id: bob.id,
          provider: 'openai',
          api_key: 'cipher-bob-own',
          key_hint: 'sk-…bob',
        })
        .returning();

      const res = await bob.post<CopySystemKeysResponse>(endpoint);
      expect(res.body).toEqual({ copied: ['anthropic'] });
      const openai = (await keysOf(bob.id)).find((r) => r.provider === 'openai');
      expect(openai).toEqual(own);
    });

    it("one user's call leaves another user's keys alone", async () => {
      const first = await t.user('copy-first@example.com');
      await first.post(endpoint);
      await t.db
        .update(userApiKeys)
        .set({ model: 'first-user-choice' })
        .where(eq(userApiKeys.user_id, first.id));
      const before = await keysOf(first.id);

      const second = await t.user('copy-second@example.com');
      const res = await second.post<CopySystemKeysResponse>(endpoint);
      expect(res.body).toEqual({ copied: ['anthropic', 'openai'] });
      expect(await keysOf(first.id)).toEqual(before);
      expect((await keysOf(second.id)).every((r) => r.user_id === second.id)).toBe(true);
    });
  });
});
