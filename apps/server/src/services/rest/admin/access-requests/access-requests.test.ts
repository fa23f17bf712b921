import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequest, AccessRequestsResponse } from '@chorus/shared/api/access-requests';
import { peopleMessages } from '@chorus/shared/messages';
import { accessRequests, adminAuditLogs } from '../../../../db/schema/index.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../test-users.ts';

let t: TestApp;
let admin: TestUser;
let plain: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  ({ admin, plain } = await signUpAdminTrio(t, 'ar'));
});
afterAll(() => t.close());

const request = async (email: string) => {
  await t.client().post('/rest/v1/access-requests', { email, reason: `Reason of ${email}` });
  await t.deps.mailer.settled();
  const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.email, email));
  return row!;
};

const inviteLinkIn = (text: string) => {
  const match = /http:\/\/localhost:8080\/auth\?invite=([\w-]+)&email=([^\s]+)/.exec(text);
  return match ? { token: match[1]!, email: decodeURIComponent(match[2]!) } : null;
};

describe('admin access requests', () => {
  it('lists requests newest first, filterable by status', async () => {
    await request('first@example.com');
    await request('second@example.com');
    const res = await admin.get<AccessRequestsResponse>('/rest/v1/admin/access-requests');
    expect(res.status).toBe(200);
    expect(res.body.requests.map((r) => r.email)).toEqual([
      'second@example.com',
      'first@example.com',
    ]);
    expect(res.body.requests[0]).toMatchObject({
      reason: 'Reason of second@example.com',
      status: 'pending',
    });
    const declined = await admin.get<AccessRequestsResponse>(
      '/rest/v1/admin/access-requests?status=declined',
    );
    expect(declined.body.total).toBe(0);
  });

  it('approves with a one-time invitation: the mail has the link, only its hash is stored', async () => {
    const row = await request('invitee@example.com');
    const res = await admin.post<AccessRequest>(`/rest/v1/admin/access-requests/${row.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      decided_by_email: 'ar-admin@example.com',
    });
    const expires = new Date(res.body.invite_expires_at!).getTime();
    expect(expires - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600 * 1000);

    const [mail] = await t.deliveredTo('invitee@example.com');
    expect(mail!.template).toBe('access_invitation');
    expect(mail!.subject).toBe('Your invitation to Chorus');
    const link = inviteLinkIn(mail!.text!);
    expect(link).toEqual({ token: expect.any(String), email: 'invitee@example.com' });
    expect(mail!.html).toContain(`${TEST_APP_URL}/auth?invite=${link!.token}`);
    // The outbox, which admins read, shows the mail without the link that signs up.
    const [shown] = await t.outboxFor('invitee@example.com');
    expect(`${shown!.html}${shown!.text}`).not.toContain(link!.token);
    expect(shown!.text).toContain(`${TEST_APP_URL}/auth?invite=[hidden]`);
    const [stored] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, row.id));
    expect(stored!.invite_token_hash).toBe(createHash('sha256').update(link!.token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(link!.token);

    const [audit] = await t.db
      .select()
      .from(adminAuditLogs)
      .where(
        and(
          eq(adminAuditLogs.record_id, row.id),
          eq(adminAuditLogs.action, 'approve_access_request'),
        ),
      );
    expect(audit).toMatchObject({
      admin_id: admin.id,
      table_name: 'access_requests',
      details: { email: 'invitee@example.com', from: 'pending', to: 'approved' },
    });
  });

  it('declines a request, audit-logged, and a decided request cannot be declined again', async () => {
    const row = await request('declined@example.com');
    const res = await admin.post<AccessRequest>(`/rest/v1/admin/access-requests/${row.id}/decline`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('declined');
    const again = await admin.post(`/rest/v1/admin/access-requests/${row.id}/decline`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: peopleMessages.accessRequestDecided('declined') });
    const audit = await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.action, 'decline_access_request'));
    expect(audit.map((a) => a.record_id)).toEqual([row.id]);
    expect(await t.outboxFor('declined@example.com')).toEqual([]);
  });

  it('refuses to invite an address that already has an account', async () => {
    const [row] = await t.db
      .insert(accessRequests)
      .values({ email: 'ar-plain@example.com', reason: 'x' })
      .returning();
    const res = await admin.post(`/rest/v1/admin/access-requests/${row!.id}/approve`);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: peopleMessages.userAlreadyExists });
    const mails = await t.outboxFor('ar-plain@example.com');
    expect(mails.filter((m) => m.template === 'access_invitation')).toEqual([]);
  });

  it('answers an unknown or malformed id with 404 or 400', async () => {
    const unknown = await admin.post(
      '/rest/v1/admin/access-requests/00000000-0000-4000-8000-000000000000/approve',
    );
    expect(unknown.status).toBe(404);
    expect((await admin.post('/rest/v1/admin/access-requests/nope/decline')).status).toBe(400);
  });

  it('refuses a guest with 401 and a plain user with 403, changing nothing', async () => {
    const row = await request('guarded@example.com');
    for (const [method, url] of [
      ['GET', '/rest/v1/admin/access-requests'],
      ['POST', `/rest/v1/admin/access-requests/${row.id}/approve`],
      ['POST', `/rest/v1/admin/access-requests/${row.id}/decline`],
    ] as const) {
      expect((await t.client().request(method, url)).status).toBe(401);
      const res = await plain.request(method, url);
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('guarded@example.com');
    }
    const [after] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, row.id));
    expect(after!.status).toBe('pending');
  });
});
