import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUsersResponse } from '@chorus/shared/api/admin';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
let superAdmin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  // The first account on the empty database becomes super_admin.
  superAdmin = await t.user('root@example.com', 'correct-horse-1', 'Root');
  plain = await t.user('plain@example.com', 'correct-horse-1', 'Plain Person');
});
afterAll(() => t.close());

describe('GET /rest/v1/admin/users', () => {
  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get('/rest/v1/admin/users')).status).toBe(401);
    const res = await plain.get('/rest/v1/admin/users');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('root@example.com');
  });

  it('lists users newest registration first with their statistics for an admin', async () => {
    const res = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.users.map((u) => u.email)).toEqual(['plain@example.com', 'root@example.com']);
    expect(res.body.users[1]).toMatchObject({
      role: 'super_admin',
      conversation_count: 0,
      message_count: 0,
    });
    expect(res.body.users[0]!.last_active).not.toBeNull();
  });

  it('searches by e-mail or name, treating wildcards literally', async () => {
    const res = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users?search=plain%20per');
    expect(res.body.users.map((u) => u.email)).toEqual(['plain@example.com']);
    const literal = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users?search=%25');
    expect(literal.body.total).toBe(0);
  });

  it('answers a bad page with 400', async () => {
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'limit=100000']) {
      expect((await superAdmin.get(`/rest/v1/admin/users?${q}`)).status, q).toBe(400);
    }
  });
});
