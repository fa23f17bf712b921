import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '@chorus/shared/api/profile';
import { messages } from '@chorus/shared/messages';
import { pricingPlans, profiles } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /rest/v1/profile', () => {
  it('answers a guest with 401 and the spec message', async () => {
    const res = await t.client().get('/rest/v1/profile');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: messages.auth.required });
  });

  it('returns the signed-in user profile with the Free plan embedded', async () => {
    const ann = await t.user('ann@example.com', 'correct-horse-1', 'Ann Lee');
    const res = await ann.get<Profile>('/rest/v1/profile');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: ann.id,
      username: 'ann@example.com',
      full_name: 'Ann Lee',
      plan: { name: 'Free' },
    });
  });

  it('falls back to the Free plan when the profile has no readable plan', async () => {
    const bob = await t.user('bob-fallback@example.com');
    const [paid] = await t.db
      .insert(pricingPlans)
      .values({ name: 'Pro', price_cents: 1500 })
      .returning();
    await t.db.update(profiles).set({ plan_id: paid!.id }).where(eq(profiles.id, bob.id));
    expect((await bob.get<Profile>('/rest/v1/profile')).body.plan.name).toBe('Pro');

    await t.db.delete(pricingPlans).where(eq(pricingPlans.id, paid!.id));
    const res = await bob.get<Profile>('/rest/v1/profile');
    expect(res.status).toBe(200);
    expect(res.body.plan.name).toBe('Free');
  });

  it('re-creates a profile that sign-up failed to provision', async () => {
    const cid = await t.user('healed@example.com');
    await t.db.delete(profiles).where(eq(profiles.id, cid.id));
    const res = await cid.get<Profile>('/rest/v1/profile');
    expect(res.status).toBe(200);
    expect(res.body.username).toBe('healed@example.com');
  });
});

describe('PATCH /rest/v1/profile', () => {
  it('updates the names of the signed-in user only', async () => {
    const ann = await t.user('patch-ann@example.com');
    const other = await t.user('patch-other@example.com', 'correct-horse-1', 'Other');
    const res = await ann.patch<Profile>('/rest/v1/profile', {
      full_name: ' Ann B ',
      public_name: 'annb',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ full_name: 'Ann B', public_name: 'annb' });
    const untouched = await other.get<Profile>('/rest/v1/profile');
    expect(untouched.body).toMatchObject({ full_name: 'Other', public_name: null });
  });

  it('refuses a public name someone else holds, whatever its case', async () => {
    const first = await t.user('name-first@example.com');
    const second = await t.user('name-second@example.com');
    expect((await first.patch('/rest/v1/profile', { public_name: 'Taken_Name' })).status).toBe(200);
    const res = await second.patch('/rest/v1/profile', { public_name: 'taken_name' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: expect.stringContaining('already taken') });
  });

  it('answers bad input with a 400 that says what is wrong, never a 500', async () => {
    const ann = await t.user('bad-input@example.com');
    const cases: unknown[] = [
      '{not json',
      '[]',
      'null',
      {},
      { role: 'admin' },
      { public_name: 'a b' },
      { full_name: 42 },
      { full_name: 'x'.repeat(500) },
    ];
    for (const body of cases) {
      const res = await ann.request('PATCH', '/rest/v1/profile', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (res.body as { error: unknown }).error).toBe('string');
    }
  });

  it('cannot be used to raise one own role', async () => {
    const ann = await t.user('no-escalation@example.com');
    await ann.patch('/rest/v1/profile', { role: 'super_admin' });
    expect((await ann.get<Profile>('/rest/v1/profile')).body.role).toBe('user');
  });

  it('answers 404 with the spec message when the profile is gone', async () => {
    const ann = await t.user('gone@example.com');
    await t.db.delete(profiles).where(eq(profiles.id, ann.id));
    const res = await ann.patch('/rest/v1/profile', { full_name: 'X' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: messages.profile.notFound });
  });
});
