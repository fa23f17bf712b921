import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminUsersResponse, UserStatisticsRow } from '@chorus/shared/api/admin';
import { messages, peopleMessages } from '@chorus/shared/messages';
import { AdminUsersRepository } from '../../../../db/repositories/admin-users.ts';
import { adminAuditLogs, pricingPlans, profiles, sessions } from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
type Client = Awaited<ReturnType<TestApp['user']>>;
let superAdmin: Client;
let plain: Client;

beforeAll(async () => {
  t = await startTestApp();
  // The first account on the empty database becomes super_admin.
  superAdmin = await t.user('root@example.com', 'correct-horse-1', 'Root');
  plain = await t.user('plain@example.com', 'correct-horse-1', 'Plain Person');
});
afterAll(() => t.close());

const auditOf = (recordId: string, action: string) =>
  t.db
    .select()
    .from(adminAuditLogs)
    .where(and(eq(adminAuditLogs.record_id, recordId), eq(adminAuditLogs.action, action)));

describe('GET /rest/v1/admin/users', () => {
  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get('/rest/v1/admin/users')).status).toBe(401);
    const res = await plain.get('/rest/v1/admin/users');
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('root@example.com');
  });

  it('lists users newest registration first with their statistics and plan for an admin', async () => {
    const res = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.users.map((u) => u.email)).toEqual(['plain@example.com', 'root@example.com']);
    expect(res.body.users[1]).toMatchObject({
      role: 'super_admin',
      plan_name: 'Free',
      conversation_count: 0,
      message_count: 0,
    });
    // Signing in is not activity: last active is the last message sent or AI call made.
    expect(res.body.users[0]!.last_active).toBeNull();
    expect(res.body.plans.map((p) => p.name)).toContain('Free');
  });

  it('searches by e-mail or name, treating wildcards literally', async () => {
    const res = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users?search=plain%20per');
    expect(res.body.users.map((u) => u.email)).toEqual(['plain@example.com']);
    const literal = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users?search=%25');
    expect(literal.body.total).toBe(0);
  });

  it('filters by role, with staff meaning admins and super admins', async () => {
    const staff = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users?role=staff');
    expect(staff.body.users.map((u) => u.email)).toEqual(['root@example.com']);
    const users = await superAdmin.get<AdminUsersResponse>('/rest/v1/admin/users?role=user');
    expect(users.body.users.map((u) => u.email)).toEqual(['plain@example.com']);
  });

  it('answers a bad page or filter with 400', async () => {
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'limit=100000', 'role=king']) {
      expect((await superAdmin.get(`/rest/v1/admin/users?${q}`)).status, q).toBe(400);
    }
  });
});

describe('PATCH /rest/v1/admin/users/{id}', () => {
  it('moves a user to another plan and writes the audit log', async () => {
    const [pro] = await t.db
      .insert(pricingPlans)
      .values({ name: 'Pro', price_cents: 1500, daily_prompt_limit: 500 })
      .returning();
    const res = await superAdmin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${plain.id}`, {
      plan_id: pro!.id,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan_id: pro!.id, plan_name: 'Pro' });
    const [entry] = await auditOf(plain.id, 'change_plan');
    expect(entry).toMatchObject({
      admin_id: superAdmin.id,
      table_name: 'profiles',
      details: { to_plan_id: pro!.id, plan_name: 'Pro' },
    });
  });

  it('answers an unknown plan or user with 404 and changes nothing', async () => {
    const unknownPlan = await superAdmin.patch(`/rest/v1/admin/users/${plain.id}`, {
      plan_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownPlan.status).toBe(404);
    expect(unknownPlan.body).toMatchObject({ error: peopleMessages.planNotFound });
    const unknownUser = await superAdmin.patch('/rest/v1/admin/users/nobody', {
      suspended: true,
    });
    expect(unknownUser.status).toBe(404);
  });

  it('refuses a body with none or several changes', async () => {
    for (const body of [{}, { role: 'admin', suspended: true }, { role: 'king' }, { x: 1 }]) {
      expect((await superAdmin.patch(`/rest/v1/admin/users/${plain.id}`, body)).status).toBe(400);
    }
  });

  it('refuses a plain user with 403 and leaves the target alone', async () => {
    const res = await plain.patch(`/rest/v1/admin/users/${superAdmin.id}`, { suspended: true });
    expect(res.status).toBe(403);
    const [row] = await t.db.select().from(profiles).where(eq(profiles.id, superAdmin.id));
    expect(row!.suspended_at).toBeNull();
  });
});

describe('suspension', () => {
  it('ends the session at once, refuses sign-in, and reactivation lets the user back in', async () => {
    const victim = await t.user('victim@example.com');
    expect((await victim.get('/rest/v1/profile')).status).toBe(200);

    const res = await superAdmin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${victim.id}`, {
      suspended: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.suspended_at).not.toBeNull();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, victim.id))).toEqual([]);

    const next = await victim.get('/rest/v1/profile');
    expect(next.status).toBe(401);
    expect(next.body).toMatchObject({ error: messages.auth.required });
    const session = await victim.get('/auth/v1/get-session');
    expect(session.body).toBeNull();

    const signIn = await t.client().signIn('victim@example.com');
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({ message: peopleMessages.accountSuspended });
    const wrongPassword = await t.client().signIn('victim@example.com', 'wrong-password-1');
    expect(wrongPassword.status).toBe(401);
    expect((await auditOf(victim.id, 'suspend_user')).length).toBe(1);

    const back = await superAdmin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${victim.id}`, {
      suspended: false,
    });
    expect(back.body.suspended_at).toBeNull();
    expect((await auditOf(victim.id, 'reactivate_user')).length).toBe(1);
    const again = t.client();
    expect((await again.signIn('victim@example.com')).status).toBe(200);
    expect((await again.get('/rest/v1/profile')).status).toBe(200);
  });

  it('treats a session that outlived the suspension as signed out', async () => {
    const sneaky = await t.user('sneaky@example.com');
    await t.db.update(profiles).set({ suspended_at: new Date() }).where(eq(profiles.id, sneaky.id));
    expect((await sneaky.get('/rest/v1/profile')).status).toBe(401);
  });
});

describe('role rules', () => {
  let admin: Client;
  let other: Client;

  beforeAll(async () => {
    admin = await t.user('second-admin@example.com');
    other = await t.user('other@example.com');
    const res = await superAdmin.patch(`/rest/v1/admin/users/${admin.id}`, { role: 'admin' });
    expect(res.status).toBe(200);
  });

  it('lets an admin move a user to admin and back, audit-logged', async () => {
    const up = await admin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${other.id}`, {
      role: 'admin',
    });
    expect(up.status).toBe(200);
    expect(up.body.role).toBe('admin');
    const down = await admin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${other.id}`, {
      role: 'user',
    });
    expect(down.body.role).toBe('user');
    const entries = await auditOf(other.id, 'change_role');
    expect(entries.map((e) => e.details)).toEqual(
      expect.arrayContaining([
        { from: 'user', to: 'admin' },
        { from: 'admin', to: 'user' },
      ]),
    );
  });

  it('lets only a super admin grant or remove super_admin', async () => {
    const grant = await admin.patch(`/rest/v1/admin/users/${other.id}`, { role: 'super_admin' });
    expect(grant.status).toBe(403);
    expect(grant.body).toMatchObject({ error: peopleMessages.superAdminOnly });
    const demote = await admin.patch(`/rest/v1/admin/users/${superAdmin.id}`, { role: 'user' });
    expect(demote.status).toBe(403);
    const suspend = await admin.patch(`/rest/v1/admin/users/${superAdmin.id}`, {
      suspended: true,
    });
    expect(suspend.status).toBe(403);
    expect(suspend.body).toMatchObject({ error: peopleMessages.cannotSuspendAdmin });

    const byRoot = await superAdmin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${other.id}`, {
      role: 'super_admin',
    });
    expect(byRoot.body.role).toBe('super_admin');
    const removed = await superAdmin.patch<UserStatisticsRow>(`/rest/v1/admin/users/${other.id}`, {
      role: 'user',
    });
    expect(removed.body.role).toBe('user');
  });

  it('refuses anyone changing their own role or suspending themselves', async () => {
    const ownRole = await superAdmin.patch(`/rest/v1/admin/users/${superAdmin.id}`, {
      role: 'admin',
    });
    expect(ownRole.status).toBe(403);
    expect(ownRole.body).toMatchObject({ error: peopleMessages.cannotChangeOwnRole });
    const ownSuspend = await admin.patch(`/rest/v1/admin/users/${admin.id}`, { suspended: true });
    expect(ownSuspend.status).toBe(403);
    expect(ownSuspend.body).toMatchObject({ error: peopleMessages.cannotSuspendSelf });
  });

  it('keeps the last active super admin even when the acting one is no longer active', async () => {
    // Through the API the acting super admin is itself active, so this guards a race: the actor
    // suspended or demoted while its own request runs.
    const ghost = { id: other.id, role: 'super_admin' as const };
    const repo = new AdminUsersRepository(t.db, ghost);
    expect(await repo.setRole(superAdmin.id, 'admin')).toEqual({
      ok: false,
      refusal: 'last_super_admin',
    });
    expect(await repo.setSuspended(superAdmin.id, true)).toEqual({
      ok: false,
      refusal: 'last_super_admin',
    });
    const [row] = await t.db.select().from(profiles).where(eq(profiles.id, superAdmin.id));
    expect(row).toMatchObject({ role: 'super_admin', suspended_at: null });
  });
});
