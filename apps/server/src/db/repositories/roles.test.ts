import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../../test/database.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { appBootstrap, profiles, users } from '../schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const roleOf = async (app: TestApp, userId: string) =>
  (await app.db.select({ role: profiles.role }).from(profiles).where(eq(profiles.id, userId)))[0]
    ?.role;

type Caller = ReturnType<TestApp['client']>;
const askIsAdmin = async (caller: Caller, body: unknown) =>
  caller.request('POST', '/rest/v1/rpc/is_admin', body);
const askIsSuperAdmin = async (caller: Caller, body: unknown) =>
  caller.request('POST', '/rest/v1/rpc/is_super_admin', body);

let superAdmin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;

describe('first account', () => {
  it('the first account on an empty database becomes super_admin, the second is a user', async () => {
    superAdmin = await t.user('first@example.com');
    plain = await t.user('second@example.com');
    expect(await roleOf(t, superAdmin.id)).toBe('super_admin');
    expect(await roleOf(t, plain.id)).toBe('user');
    const [claim] = await t.db.select().from(appBootstrap);
    expect(claim?.first_user_id).toBe(superAdmin.id);
  });

  // Creating a database costs seconds (PGlite migrates in WASM; PostgreSQL copies a template), so
  // the later races reuse the last fresh database, emptied of accounts and so of the first-user claim.
  it('two simultaneous first sign-ups yield exactly one super_admin, race after race', async () => {
    const races = 5;
    const freshDatabases = testDriver() === 'postgres' ? 2 : 1;
    let app: TestApp | undefined;
    try {
      for (let race = 0; race < races; race++) {
        if (race < freshDatabases) {
          await app?.close();
          app = await startTestApp();
        } else {
          await app!.db.delete(users);
        }
        const [a, b] = await Promise.all([
          app!.client().signUp(`race-a-${race}@example.com`),
          app!.client().signUp(`race-b-${race}@example.com`),
        ]);
        expect([a.status, b.status]).toEqual([200, 200]);
        const roles = [await roleOf(app!, a.body.user.id), await roleOf(app!, b.body.user.id)];
        expect(roles.sort(), `race ${race}`).toEqual(['super_admin', 'user']);
        expect(await app!.db.select().from(appBootstrap)).toHaveLength(1);
      }
    } finally {
      await app?.close();
    }
  });
});

describe('POST /rest/v1/rpc/is_admin and is_super_admin', () => {
  it('tells users the truth about themselves', async () => {
    expect((await askIsAdmin(superAdmin, { user_uuid: superAdmin.id })).body).toBe(true);
    expect((await askIsSuperAdmin(superAdmin, { user_uuid: superAdmin.id })).body).toBe(true);
    expect((await askIsAdmin(plain, { user_uuid: plain.id })).body).toBe(false);
    expect((await askIsSuperAdmin(plain, { user_uuid: plain.id })).body).toBe(false);
  });

  it('answers false to a plain user asking about somebody else', async () => {
    const asAdmin = await askIsAdmin(plain, { user_uuid: superAdmin.id });
    expect(asAdmin).toMatchObject({ status: 200, body: false });
    const asSuper = await askIsSuperAdmin(plain, { user_uuid: superAdmin.id });
    expect(asSuper).toMatchObject({ status: 200, body: false });
  });

  it('tells the super admin the truth about another user', async () => {
    expect((await askIsAdmin(superAdmin, { user_uuid: plain.id })).body).toBe(false);
    expect((await askIsSuperAdmin(superAdmin, { user_uuid: plain.id })).body).toBe(false);
  });

  it('answers false to a guest, even about the super admin', async () => {
    const guest = t.client();
    expect(await askIsAdmin(guest, { user_uuid: superAdmin.id })).toMatchObject({
      status: 200,
      body: false,
    });
    expect(await askIsSuperAdmin(guest, { user_uuid: superAdmin.id })).toMatchObject({
      status: 200,
      body: false,
    });
  });

  it('answers 200 false to any malformed request, never an error', async () => {
    const bodies: unknown[] = [
      '{not json',
      '',
      'null',
      '[]',
      '"text"',
      {},
      { user_uuid: null },
      { user_uuid: 42 },
      { user_uuid: [superAdmin.id] },
      { user_uuid: { id: superAdmin.id } },
      { user_uuid: 'x'.repeat(10 * 1024) },
      { user_uuid: '' },
      { user_uuid: "' or 1=1 --" },
      { user_uuid: crypto.randomUUID() },
    ];
    for (const caller of [superAdmin, plain, t.client()]) {
      for (const body of bodies) {
        for (const ask of [askIsAdmin, askIsSuperAdmin]) {
          const res = await ask(caller, body);
          expect(res, `${JSON.stringify(body).slice(0, 60)}`).toMatchObject({
            status: 200,
            body: false,
          });
        }
      }
    }
  });

  it('reports an admin as admin but not as super admin', async () => {
    const admin = await t.user('promoted@example.com');
    await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));

    expect((await askIsAdmin(admin, { user_uuid: admin.id })).body).toBe(true);
    expect((await askIsSuperAdmin(admin, { user_uuid: admin.id })).body).toBe(false);
    expect((await askIsAdmin(superAdmin, { user_uuid: admin.id })).body).toBe(true);
    expect((await askIsSuperAdmin(superAdmin, { user_uuid: admin.id })).body).toBe(false);
    // An admin may ask about others too.
    expect((await askIsSuperAdmin(admin, { user_uuid: superAdmin.id })).body).toBe(true);
    expect((await askIsAdmin(admin, { user_uuid: plain.id })).body).toBe(false);
  });
});
