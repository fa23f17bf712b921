import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequest } from '@chorus/shared/api/access-requests';
import { accessRequests, profiles } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

// Issue 13, point 2: a page elsewhere on the same site auto-submitted a text/plain form to the
// approve route and the browser added the admin's cookie. Such requests must be refused.

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.user('origin-root@example.com');
  await t.db.update(profiles).set({ role: 'super_admin' }).where(eq(profiles.id, admin.id));
});
afterAll(() => t.close());

/** As the admin's browser sends it from a page of `origin` ('': without an Origin header). */
const asAdminFrom = (origin: string, method: string, url: string, body = '{}') =>
  admin.send(method, url, { headers: { 'content-type': 'text/plain', origin }, body });

const pendingRequest = async (email: string) => {
  await t.client().post('/rest/v1/access-requests', { email, reason: 'Please' });
  await t.deps.mailer.settled();
  const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.email, email));
  return row!;
};

describe('state-changing requests made with a session', () => {
  it('are refused from a page that is not ours, and change nothing', async () => {
    const row = await pendingRequest('forged-approval@example.com');
    for (const origin of ['http://evil.localhost:8080', 'null', 'http://localhost:8081', '']) {
      const res = await asAdminFrom(
        origin,
        'POST',
        `/rest/v1/admin/access-requests/${row.id}/approve`,
      );
      expect(res.status, String(origin)).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'auth:untrusted_origin' });
    }
    const [after] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, row.id));
    expect(after!.status).toBe('pending');

    for (const [method, url] of [
      ['POST', `/rest/v1/admin/access-requests/${row.id}/decline`],
      ['POST', '/functions/v1/copy-system-api-keys'],
      ['POST', '/auth/v1/refresh-session'],
      ['PATCH', '/rest/v1/profile'],
      ['DELETE', '/storage/v1/files/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      expect((await asAdminFrom('http://evil.localhost:8080', method, url)).status, url).toBe(403);
    }
  });

  it('pass from our own pages, and reads pass from anywhere', async () => {
    const row = await pendingRequest('real-approval@example.com');
    const approved = await admin.post<AccessRequest>(
      `/rest/v1/admin/access-requests/${row.id}/approve`,
    );
    expect(approved.body.status).toBe('approved');
    const read = await admin.send('GET', '/rest/v1/profile', {
      headers: { origin: 'http://evil.localhost:8080' },
    });
    expect(read.status).toBe(200);
  });

  it('without a session are left to the route (a guest’s contact form, a webhook)', async () => {
    const guest = t.client();
    const res = await guest.send('POST', '/rest/v1/access-requests', {
      headers: { 'content-type': 'application/json', origin: 'http://elsewhere.example' },
      body: JSON.stringify({ email: 'guest-request@example.com', reason: 'Hi' }),
    });
    expect(res.status).toBe(202);
  });
});
