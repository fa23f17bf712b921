import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppSettings, SignupModeResponse } from '@chorus/shared/api/settings';
import { adminAuditLogs } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../test-users.ts';

let t: TestApp;
let root: TestUser;
let admin: TestUser;
let plain: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  ({ root, admin, plain } = await signUpAdminTrio(t, 'settings'));
});
afterAll(() => t.close());

const put = (c: TestUser | ReturnType<TestApp['client']>, body: unknown) =>
  c.request<AppSettings>('PUT', '/rest/v1/admin/settings', body);

describe('/rest/v1/admin/settings', () => {
  it('starts open with no notice, and the public signup-mode says so', async () => {
    const res = await root.get<AppSettings>('/rest/v1/admin/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      signup_mode: 'open',
      signup_notice: '',
      outbound_allow_hosts: [],
      updated_at: null,
    });
    const open = await t.client().get<SignupModeResponse>('/rest/v1/signup-mode');
    expect(open.body).toEqual({ signup_mode: 'open', signup_notice: '' });
  });

  it('is for super admins only: a guest gets 401, an admin and a plain user 403', async () => {
    expect((await t.client().get('/rest/v1/admin/settings')).status).toBe(401);
    expect((await put(t.client(), { signup_mode: 'request' })).status).toBe(401);
    for (const who of [admin, plain]) {
      expect((await who.get('/rest/v1/admin/settings')).status).toBe(403);
      expect((await put(who, { signup_mode: 'request' })).status).toBe(403);
    }
    expect((await root.get<AppSettings>('/rest/v1/admin/settings')).body.signup_mode).toBe('open');
  });

  it('changes the sign-up mode and notice, each change audit-logged, and the public view follows', async () => {
    const res = await put(root, {
      signup_mode: 'request',
      signup_notice: '  Ask Ada for access.  ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      signup_mode: 'request',
      signup_notice: 'Ask Ada for access.',
    });
    expect(res.body.updated_at).not.toBeNull();
    const pub = await t.client().get<SignupModeResponse>('/rest/v1/signup-mode');
    expect(pub.body).toEqual({ signup_mode: 'request', signup_notice: 'Ask Ada for access.' });

    const audit = await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.table_name, 'app_settings'));
    expect(audit.map((a) => [a.admin_id, a.action, a.record_id, a.details])).toEqual(
      expect.arrayContaining([
        [
          root.id,
          'update_setting',
          'signup_mode',
          { key: 'signup_mode', from: 'open', to: 'request' },
        ],
        [
          root.id,
          'update_setting',
          'signup_notice',
          { key: 'signup_notice', from: '', to: 'Ask Ada for access.' },
        ],
      ]),
    );
    // Saving the same value again writes nothing new.
    await put(root, { signup_mode: 'request' });
    const after = await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.table_name, 'app_settings'));
    expect(after).toHaveLength(2);
  });

  it('answers an unknown mode, a long notice or an empty body with 400', async () => {
    for (const body of [
      { signup_mode: 'closed' },
      { signup_notice: 'x'.repeat(501) },
      {},
      { x: 1 },
    ]) {
      expect((await put(root, body)).status).toBe(400);
    }
  });

  it('keeps an allow-list of private hosts: checked, tidied and audit-logged', async () => {
    const bad = await put(root, { outbound_allow_hosts: ['intranet.example', '10.0.0.0/33'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'outbound:bad_allow_entry' });
    expect((bad.body as unknown as { error: string }).error).toContain('"10.0.0.0/33"');
    for (const hosts of [[''], 'intranet.example', Array(101).fill('a.example')]) {
      expect((await put(root, { outbound_allow_hosts: hosts })).status).toBe(400);
    }

    const res = await put(root, {
      outbound_allow_hosts: [
        ' mcp.intranet.example ',
        '10.1.0.0/16',
        '[fd12::5]',
        'MCP.intranet.example',
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.outbound_allow_hosts).toEqual([
      'mcp.intranet.example',
      '10.1.0.0/16',
      '[fd12::5]',
    ]);
    expect(res.body.signup_mode).toBe('request');
    expect(
      (await root.get<AppSettings>('/rest/v1/admin/settings')).body.outbound_allow_hosts,
    ).toEqual(['mcp.intranet.example', '10.1.0.0/16', '[fd12::5]']);
    const audit = await t.db
      .select()
      .from(adminAuditLogs)
      .where(eq(adminAuditLogs.record_id, 'outbound_allow_hosts'));
    expect(audit.map((a) => [a.admin_id, a.details])).toEqual([
      [
        root.id,
        {
          key: 'outbound_allow_hosts',
          from: [],
          to: ['mcp.intranet.example', '10.1.0.0/16', '[fd12::5]'],
        },
      ],
    ]);

    // The public sign-up view shows nothing of it.
    const pub = await t.client().get('/rest/v1/signup-mode');
    expect(JSON.stringify(pub.body)).not.toContain('intranet');
  });
});
