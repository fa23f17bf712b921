import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogEntry, AuditLogsResponse } from '@chorus/shared/api/audit-logs';
import { messages } from '@chorus/shared/messages';
import { adminAuditLogs } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../test-users.ts';

let t: TestApp;
let root: TestUser;
let admin: TestUser;
let plain: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  ({ root, admin, plain } = await signUpAdminTrio(t, 'audit'));
});
afterAll(() => t.close());

describe('POST /rest/v1/admin/audit-logs', () => {
  it("refuses a plain user with 403 'Not authorized to log admin action' and stores nothing", async () => {
    const res = await plain.post('/rest/v1/admin/audit-logs', {
      action: 'forge',
      table_name: 'profiles',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: messages.admin.notAuthorizedToLog, code: 'auth:forbidden' });
    // Even a malformed body gets the same refusal: the role is checked first.
    const malformed = await plain.post('/rest/v1/admin/audit-logs', { nope: true });
    expect(malformed.status).toBe(403);
    expect(await t.db.select().from(adminAuditLogs)).toEqual([]);
  });

  it('refuses a guest with 401', async () => {
    const res = await t
      .client()
      .post('/rest/v1/admin/audit-logs', { action: 'x', table_name: 'y' });
    expect(res.status).toBe(401);
  });

  it("writes an admin's entry under the admin's own id", async () => {
    const res = await admin.post<AuditLogEntry>('/rest/v1/admin/audit-logs', {
      action: 'export_users',
      table_name: 'user_statistics',
      record_id: null,
      details: { format: 'csv', admin_id: 'someone-else' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      admin_id: admin.id,
      admin_email: 'audit-admin@example.com',
      action: 'export_users',
      details: { format: 'csv' },
      posted_by_admin: true,
    });
  });

  it('answers a malformed entry from an admin with 400', async () => {
    for (const body of [
      {},
      { action: '', table_name: 'x' },
      { action: 'a', table_name: 'b', details: 'x' },
    ]) {
      expect((await admin.post('/rest/v1/admin/audit-logs', body)).status).toBe(400);
    }
  });
});

describe('GET /rest/v1/admin/audit-logs', () => {
  beforeAll(async () => {
    await root.post('/rest/v1/admin/audit-logs', {
      action: 'a_first',
      table_name: 'profiles',
      record_id: 'r1',
    });
    await admin.post('/rest/v1/admin/audit-logs', {
      action: 'a_second',
      table_name: 'pricing_plans',
    });
    await root.post('/rest/v1/admin/audit-logs', { action: 'a_third', table_name: 'profiles' });
  });

  it('lists entries newest first with the acting admin and the filter choices', async () => {
    const res = await admin.get<AuditLogsResponse>('/rest/v1/admin/audit-logs');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.entries.map((e) => e.action)).toEqual([
      'a_third',
      'a_second',
      'a_first',
      'export_users',
    ]);
    expect(res.body.entries[0]!.admin_email).toBe('audit-root@example.com');
    expect(res.body.actions).toEqual(['a_first', 'a_second', 'a_third', 'export_users']);
    expect(res.body.tables).toEqual(['pricing_plans', 'profiles', 'user_statistics']);
  });

  it('filters by action, table, admin and date range, and pages', async () => {
    const byTable = await admin.get<AuditLogsResponse>(
      '/rest/v1/admin/audit-logs?table_name=profiles',
    );
    expect(byTable.body.entries.map((e) => e.action)).toEqual(['a_third', 'a_first']);
    const byAction = await admin.get<AuditLogsResponse>(
      '/rest/v1/admin/audit-logs?action=a_second',
    );
    expect(byAction.body.total).toBe(1);
    const byAdmin = await admin.get<AuditLogsResponse>(
      `/rest/v1/admin/audit-logs?admin_id=${admin.id}`,
    );
    expect(byAdmin.body.entries.map((e) => e.action)).toEqual(['a_second', 'export_users']);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await admin.get<AuditLogsResponse>(
      `/rest/v1/admin/audit-logs?from=${today}&to=${today}`,
    );
    expect(inRange.body.total).toBe(4);
    const past = await admin.get<AuditLogsResponse>('/rest/v1/admin/audit-logs?to=2000-01-01');
    expect(past.body.total).toBe(0);
    const page = await admin.get<AuditLogsResponse>('/rest/v1/admin/audit-logs?limit=2&offset=2');
    expect(page.body.entries.map((e) => e.action)).toEqual(['a_first', 'export_users']);
  });

  it('answers a bad filter with 400', async () => {
    for (const q of ['from=yesterday', 'limit=0', 'from=2025-02-01&to=2025-01-01']) {
      expect((await admin.get(`/rest/v1/admin/audit-logs?${q}`)).status, q).toBe(400);
    }
  });

  it('refuses a date the database cannot hold with 400 request:bad_date, and takes the edges', async () => {
    // Year 0000 once reached PostgreSQL, which refused it: a 500.
    for (const q of [
      'from=0000-01-01T00:00:00Z',
      'from=0000-01-01',
      'to=%2B275760-09-13T00:00:00Z',
      'from=0001-01-01T00:00:00%2B14:00',
      'to=9999-12-31T23:59:59-14:00',
      'from=2024-02-30',
    ]) {
      const res = await admin.get<{ error: string; code: string }>(
        `/rest/v1/admin/audit-logs?${q}`,
      );
      expect(res.status, q).toBe(400);
      expect(res.body.code, q).toBe('request:bad_date');
      expect(res.body.error, q).toMatch(
        /^Field (from|to): Use a date such as 2025-01-31 or .+ from 0001-01-01 to 9999-12-31\.$/,
      );
    }
    const edges = await admin.get<AuditLogsResponse>(
      '/rest/v1/admin/audit-logs?from=0001-01-01T00:00:00Z&to=9999-12-31',
    );
    expect(edges.status).toBe(200);
    expect(edges.body.entries.length).toBeGreaterThan(0);
  });

  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get('/rest/v1/admin/audit-logs')).status).toBe(401);
    const res = await plain.get('/rest/v1/admin/audit-logs');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('a_first');
  });
});

describe('entries an admin posts', () => {
  it('marks a posted entry as the admin’s own, apart from one Chorus wrote', async () => {
    // An admin writes an entry that copies a system one, word for word.
    const forged = await admin.post<AuditLogEntry>('/rest/v1/admin/audit-logs', {
      action: 'resend_email',
      table_name: 'email_outbox',
      record_id: '00000000-0000-4000-8000-000000000001',
      details: { outcome: 'sent' },
    });
    expect(forged.status).toBe(201);
    // And Chorus writes one itself when an admin acts (a role change).
    const changed = await root.patch(`/rest/v1/admin/users/${plain.id}`, { role: 'admin' });
    expect(changed.status).toBe(200);
    await root.patch(`/rest/v1/admin/users/${plain.id}`, { role: 'user' });

    const list = await root.get<AuditLogsResponse>('/rest/v1/admin/audit-logs?limit=100');
    const posted = list.body.entries.find((e) => e.id === forged.body.id)!;
    expect(posted).toMatchObject({ posted_by_admin: true, admin_email: admin.email });
    const written = list.body.entries.filter(
      (e) => e.table_name === 'profiles' && !e.posted_by_admin,
    );
    expect(written.length).toBeGreaterThanOrEqual(1);
    // Nothing in the body lets a poster claim otherwise.
    const claimed = await admin.post<AuditLogEntry>('/rest/v1/admin/audit-logs', {
      action: 'x',
      table_name: 'y',
      posted_by_admin: false,
    });
    expect(claimed.status === 400 || claimed.body.posted_by_admin === true).toBe(true);
  });
});
