import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { sessions } from '../db/schema/index.ts';
import { openTestDatabase } from '../test/database.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

// Two server instances on one database, as behind a load balancer: their caches are their own,
// and only the database (rows and NOTIFY) connects them.
let database: Database;
let a: TestApp;
let b: TestApp;
let root: Awaited<ReturnType<TestApp['user']>>;
const env = { AUTH_SECRET: 'two-instances-share-this-secret-0123456789' };

beforeAll(async () => {
  database = await openTestDatabase();
  a = await startTestApp({ database, env });
  b = await startTestApp({ database, env });
  root = await a.user('fast-root@example.com');
});
afterAll(async () => {
  await a.close();
  await b.close();
  await database.close();
});

/** The same browser (its cookies) talking to instance B. */
const onB = (user: Awaited<ReturnType<TestApp['user']>>) => {
  const c = b.client(user.ip);
  for (const [k, v] of user.cookies) c.cookies.set(k, v);
  return c;
};

/** Polls until `refused` holds; a session must end within the 5 s cookie cache, plus slack. */
const refusedWithin = async (ask: () => Promise<number>, ms = 7_000) => {
  const until = Date.now() + ms;
  for (;;) {
    const status = await ask();
    if (status === 401) return status;
    if (Date.now() > until) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('sessions on the fast path', () => {
  it('serves a signed-in user from the cookie cache without losing them between requests', async () => {
    const ann = await a.user('fast-ann@example.com');
    expect(ann.cookies.has('chorus.session_data')).toBe(true);
    for (let i = 0; i < 5; i += 1)
      expect((await onB(ann).get('/rest/v1/profile')).status).toBe(200);
  });

  it('shuts a suspended user out on every instance at once', async () => {
    const ann = await a.user('fast-suspended@example.com');
    const annOnB = onB(ann);
    expect((await annOnB.get('/rest/v1/profile')).status).toBe(200);

    const res = await root.patch(`/rest/v1/admin/users/${ann.id}`, { suspended: true });
    expect(res.status).toBe(200);
    expect(await refusedWithin(async () => (await annOnB.get('/rest/v1/profile')).status)).toBe(
      401,
    );
  });

  it('ends a revoked session on every instance within the cookie cache’s 5 s', async () => {
    const bob = await a.user('fast-revoked@example.com');
    const bobOnB = onB(bob);
    expect((await bobOnB.get('/rest/v1/profile')).status).toBe(200);
    // What "sign out everywhere" does: the session rows are gone.
    await database.db.delete(sessions).where(eq(sessions.userId, bob.id));
    expect(await refusedWithin(async () => (await bobOnB.get('/rest/v1/profile')).status)).toBe(
      401,
    );
  });
});

describe('the cookie cache read without better-auth', () => {
  type Profile = { id: string };
  const cookieCache = 'chorus.session_data';
  const sessionCookie = 'chorus.session_token';

  it('never trusts a cache whose signature does not hold', async () => {
    const cid = await a.user('cache-tampered@example.com');
    const payload = JSON.parse(
      Buffer.from(cid.cookies.get(cookieCache)!, 'base64url').toString('utf8'),
    ) as { session: { user: { id: string } } };
    payload.session.user.id = root.id;
    cid.cookies.set(cookieCache, Buffer.from(JSON.stringify(payload)).toString('base64url'));

    const res = await cid.get<Profile>('/rest/v1/profile');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(cid.id);
  });

  it("reads one user's cache beside another user's session cookie as that other user", async () => {
    const dee = await a.user('cache-dee@example.com');
    const eve = await a.user('cache-eve@example.com');
    const mixed = a.client();
    mixed.cookies.set(cookieCache, dee.cookies.get(cookieCache)!);
    mixed.cookies.set(sessionCookie, eve.cookies.get(sessionCookie)!);

    const res = await mixed.get<Profile>('/rest/v1/profile');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(eve.id);
  });

  it('refuses a cache alone, without the session cookie', async () => {
    const fay = await a.user('cache-alone@example.com');
    const bare = a.client();
    bare.cookies.set(cookieCache, fay.cookies.get(cookieCache)!);
    expect((await bare.get('/rest/v1/profile')).status).toBe(401);
  });
});
