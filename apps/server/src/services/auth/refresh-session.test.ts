import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitWindows } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { sessions } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

type SessionBody = {
  session: Record<string, unknown> & { expiresAt: string; userId: string };
  user: { id: string; email: string };
};

const weekMs = 7 * 24 * 60 * 60 * 1000;
const { points, blockSeconds } = rateLimitWindows.token_refresh;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const sessionRowsOf = (userId: string) =>
  t.db.select().from(sessions).where(eq(sessions.userId, userId));

/** Pretends the session was last extended long ago: it now ends in an hour. */
const ageSessions = async (userId: string) => {
  const inAnHour = new Date(Date.now() + 60 * 60 * 1000);
  await t.db.update(sessions).set({ expiresAt: inAnHour }).where(eq(sessions.userId, userId));
  return inAnHour;
};

describe('POST /auth/v1/refresh-session', () => {
  it('answers a guest with 401 and the auth-required message', async () => {
    const res = await t.client().post('/auth/v1/refresh-session');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: messages.auth.required, code: 'auth:required' });
  });

  it('answers a forged or signed-out cookie with 401', async () => {
    const forged = t.client();
    forged.cookies.set('chorus.session_token', 'made-up.c2lnbmF0dXJl');
    expect((await forged.post('/auth/v1/refresh-session')).status).toBe(401);

    const leaver = await t.user('leaver@example.com');
    expect((await leaver.post('/auth/v1/sign-out')).status).toBe(200);
    expect((await leaver.post('/auth/v1/refresh-session')).status).toBe(401);
  });

  it('slides the session to seven days from now, renews the cookie and answers like get-session', async () => {
    const ann = await t.user('slide@example.com');
    const cookieBefore = ann.cookies.get('chorus.session_token');
    const agedUntil = await ageSessions(ann.id);

    const started = Date.now();
    const res = await ann.post<SessionBody>('/auth/v1/refresh-session');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const expiresAt = new Date(res.body.session.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(started + weekMs - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + weekMs + 1000);
    expect(expiresAt).toBeGreaterThan(agedUntil.getTime());
    const [row] = await sessionRowsOf(ann.id);
    expect(row!.expiresAt.getTime()).toBe(expiresAt);

    // The same signed token, with a fresh week of Max-Age.
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('chorus.session_token='));
    expect(setCookie).toMatch(/Max-Age=604800/i);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(ann.cookies.get('chorus.session_token')).toBe(cookieBefore);

    // The token stays in the httpOnly cookie only.
    expect(res.body.session).not.toHaveProperty('token');
    expect(JSON.stringify(res.body)).not.toContain(row!.token);

    const read = await ann.get<SessionBody>('/auth/v1/get-session');
    expect(read.status).toBe(200);
    expect(Object.keys(res.body.session).sort()).toEqual(Object.keys(read.body.session).sort());
    expect(Object.keys(res.body.user).sort()).toEqual(Object.keys(read.body.user).sort());
    expect(res.body.user).toEqual(read.body.user);
    expect(read.body.session.expiresAt).toBe(res.body.session.expiresAt);
    expect(res.body.user).toMatchObject({ id: ann.id, email: 'slide@example.com' });
  });

  it(`allows ${points} refreshes a minute per user, then answers 429 for ${blockSeconds} s`, async () => {
    const bea = await t.user('eager@example.com');
    for (let n = 1; n <= points; n++) {
      expect((await bea.post('/auth/v1/refresh-session')).status, `refresh ${n}`).toBe(200);
    }
    const blocked = await bea.post('/auth/v1/refresh-session');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe(String(blockSeconds));
    expect(blocked.body).toEqual({
      error: messages.rateLimit.operation('Token refresh', blockSeconds),
      code: 'rate_limit:exceeded',
    });

    // Keyed by the user, not the browser: a second session of Bea's is blocked as well.
    const otherBrowser = t.client();
    expect((await otherBrowser.signIn('eager@example.com')).status).toBe(200);
    expect((await otherBrowser.post('/auth/v1/refresh-session')).status).toBe(429);

    // Another user is untouched, and a blocked refresh did not extend anything.
    const cal = await t.user('calm@example.com');
    expect((await cal.post('/auth/v1/refresh-session')).status).toBe(200);
    const agedUntil = await ageSessions(bea.id);
    await bea.post('/auth/v1/refresh-session');
    const rows = await sessionRowsOf(bea.id);
    expect(rows.map((r) => r.expiresAt.getTime())).toEqual(rows.map(() => agedUntil.getTime()));
  });
});
