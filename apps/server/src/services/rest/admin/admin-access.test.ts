import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequest } from '@chorus/shared/api/access-requests';
import { messages, peopleMessages } from '@chorus/shared/messages';
import {
  accessRequests,
  adminAuditLogs,
  pricingPlans,
  sessions,
} from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from './test-users.ts';

/**
 * Every admin route, walked as a guest (401), a plain user (403), an admin and a super admin,
 * with the audit log checked after each change.
 */
let t: TestApp;
type Caller = TestUser | ReturnType<TestApp['client']>;
let root: TestUser;
let admin: TestUser;
let plain: TestUser;
let proPlanId: string;
let serial = 0;

const auditCount = async (where?: ReturnType<typeof and>) =>
  (await t.db.select({ n: count() }).from(adminAuditLogs).where(where))[0]!.n;

const newUser = async () => {
  serial += 1;
  return t.user(`walk-target-${serial}@example.com`);
};

const newRequest = async () => {
  serial += 1;
  const [row] = await t.db
    .insert(accessRequests)
    .values({ email: `walk-request-${serial}@example.com`, reason: 'walk' })
    .returning();
  return row!.id;
};

type Call = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; body?: unknown };
type Route = {
  name: string;
  level: 'admin' | 'super_admin';
  /** A fresh call for each caller, so every caller's change has something to change. */
  make: () => Promise<Call>;
  ok: number;
  /** The audit action a successful call writes; none for reads. */
  audit?: string;
};

const routes: Route[] = [
  {
    name: 'list users',
    level: 'admin',
    make: async () => ({ method: 'GET', url: '/rest/v1/admin/users' }),
    ok: 200,
  },
  {
    name: "change a user's plan",
    level: 'admin',
    make: async () => ({
      method: 'PATCH',
      url: `/rest/v1/admin/users/${(await newUser()).id}`,
      body: { plan_id: proPlanId },
    }),
    ok: 200,
    audit: 'change_plan',
  },
  {
    name: "change a user's role",
    level: 'admin',
    make: async () => ({
      method: 'PATCH',
      url: `/rest/v1/admin/users/${(await newUser()).id}`,
      body: { role: 'admin' },
    }),
    ok: 200,
    audit: 'change_role',
  },
  {
    name: 'suspend a user',
    level: 'admin',
    make: async () => ({
      method: 'PATCH',
      url: `/rest/v1/admin/users/${(await newUser()).id}`,
      body: { suspended: true },
    }),
    ok: 200,
    audit: 'suspend_user',
  },
  {
    name: 'list system keys',
    level: 'admin',
    make: async () => ({ method: 'GET', url: '/rest/v1/admin/api-keys' }),
    ok: 200,
  },
  {
    name: 'set a system key',
    level: 'admin',
    make: async () => ({
      method: 'PUT',
      url: '/rest/v1/admin/api-keys/system/openai',
      body: { api_key: `sk-walk-${(serial += 1)}-0000` },
    }),
    ok: 200,
    audit: 'set_api_key',
  },
  {
    name: 'remove a system key',
    level: 'admin',
    make: async () => {
      await root.request('PUT', '/rest/v1/admin/api-keys/default/mistral', {
        api_key: 'walk-mistral-key-0000',
      });
      return { method: 'DELETE', url: '/rest/v1/admin/api-keys/default/mistral' };
    },
    ok: 204,
    audit: 'delete_api_key',
  },
  {
    name: 'switch a provider',
    level: 'admin',
    make: async () => ({
      method: 'PATCH',
      url: '/rest/v1/admin/providers/perplexity',
      body: { enabled: false },
    }),
    ok: 200,
    audit: 'disable_provider',
  },
  {
    name: 'read the audit log',
    level: 'admin',
    make: async () => ({ method: 'GET', url: '/rest/v1/admin/audit-logs' }),
    ok: 200,
  },
  {
    name: 'write the audit log',
    level: 'admin',
    make: async () => ({
      method: 'POST',
      url: '/rest/v1/admin/audit-logs',
      body: { action: 'walk_note', table_name: 'profiles', details: { note: 'walk' } },
    }),
    ok: 201,
    audit: 'walk_note',
  },
  {
    name: 'list access requests',
    level: 'admin',
    make: async () => ({ method: 'GET', url: '/rest/v1/admin/access-requests' }),
    ok: 200,
  },
  {
    name: 'approve an access request',
    level: 'admin',
    make: async () => ({
      method: 'POST',
      url: `/rest/v1/admin/access-requests/${await newRequest()}/approve`,
    }),
    ok: 200,
    audit: 'approve_access_request',
  },
  {
    name: 'decline an access request',
    level: 'admin',
    make: async () => ({
      method: 'POST',
      url: `/rest/v1/admin/access-requests/${await newRequest()}/decline`,
    }),
    ok: 200,
    audit: 'decline_access_request',
  },
  {
    name: 'read the overview',
    level: 'admin',
    make: async () => ({ method: 'GET', url: '/rest/v1/admin/overview' }),
    ok: 200,
  },
  {
    name: 'read the workspace settings',
    level: 'super_admin',
    make: async () => ({ method: 'GET', url: '/rest/v1/admin/settings' }),
    ok: 200,
  },
  {
    name: 'change the workspace settings',
    level: 'super_admin',
    make: async () => ({
      method: 'PUT',
      url: '/rest/v1/admin/settings',
      body: { signup_notice: `Notice ${(serial += 1)}` },
    }),
    ok: 200,
    audit: 'update_setting',
  },
];

beforeAll(async () => {
  t = await startTestApp();
  ({ root, admin, plain } = await signUpAdminTrio(t, 'walk'));
  const [pro] = await t.db.insert(pricingPlans).values({ name: 'Walk Pro' }).returning();
  proPlanId = pro!.id;
});
afterAll(() => t.close());

const call = (who: Caller, c: Call) => who.request(c.method, c.url, c.body);

describe.each(routes)('$name', (route) => {
  it('refuses a guest with 401 and a plain user with 403, writing nothing', async () => {
    const [forGuest, forUser] = [await route.make(), await route.make()];
    const before = await auditCount();
    const guest = await call(t.client(), forGuest);
    expect(guest.status).toBe(401);
    expect(guest.body).toMatchObject({ error: messages.auth.required });
    const user = await call(plain, forUser);
    expect(user.status).toBe(403);
    expect(await auditCount()).toBe(before);
  });

  it(
    route.level === 'admin'
      ? 'serves an admin, audit-logged when it changes something'
      : 'refuses an admin with 403',
    async () => {
      const made = await route.make();
      const before = await auditCount();
      const mine = route.audit
        ? and(eq(adminAuditLogs.admin_id, admin.id), eq(adminAuditLogs.action, route.audit))
        : undefined;
      const beforeMine = await auditCount(mine);
      const res = await call(admin, made);
      if (route.level === 'super_admin') {
        expect(res.status).toBe(403);
        expect(await auditCount()).toBe(before);
        return;
      }
      expect(res.status, JSON.stringify(res.body)).toBe(route.ok);
      if (route.audit) {
        expect(await auditCount(mine)).toBe(beforeMine + 1);
      } else {
        expect(await auditCount()).toBe(before);
      }
    },
  );

  it('serves a super admin, audit-logged when it changes something', async () => {
    const made = await route.make();
    const before = route.audit
      ? await auditCount(
          and(eq(adminAuditLogs.admin_id, root.id), eq(adminAuditLogs.action, route.audit)),
        )
      : await auditCount();
    const res = await call(root, made);
    expect(res.status, JSON.stringify(res.body)).toBe(route.ok);
    if (route.audit) {
      const after = await auditCount(
        and(eq(adminAuditLogs.admin_id, root.id), eq(adminAuditLogs.action, route.audit)),
      );
      expect(after).toBe(before + 1);
    } else {
      expect(await auditCount()).toBe(before);
    }
  });
});

describe('people rules across roles', () => {
  it('ends a suspended user’s session at once and refuses their sign-in', async () => {
    const victim = await t.user('walk-victim@example.com');
    expect((await victim.get('/rest/v1/profile')).status).toBe(200);
    expect(
      (await admin.patch(`/rest/v1/admin/users/${victim.id}`, { suspended: true })).status,
    ).toBe(200);
    expect((await victim.get('/rest/v1/profile')).status).toBe(401);
    expect((await victim.get('/rest/v1/conversations')).status).toBe(401);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, victim.id))).toEqual([]);
    const signIn = await t.client().signIn('walk-victim@example.com');
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({ message: peopleMessages.accountSuspended });
  });

  it('lets admins move users between user and admin only; super_admin is for super admins', async () => {
    const target = await newUser();
    expect(
      (await admin.patch(`/rest/v1/admin/users/${target.id}`, { role: 'super_admin' })).status,
    ).toBe(403);
    expect((await admin.patch(`/rest/v1/admin/users/${root.id}`, { role: 'admin' })).status).toBe(
      403,
    );
    expect((await admin.patch(`/rest/v1/admin/users/${admin.id}`, { role: 'user' })).status).toBe(
      403,
    );
    expect((await root.patch(`/rest/v1/admin/users/${root.id}`, { suspended: true })).status).toBe(
      403,
    );
    expect(
      (await root.patch(`/rest/v1/admin/users/${target.id}`, { role: 'super_admin' })).status,
    ).toBe(200);
  });
});

describe('request access, end to end', () => {
  it('takes a request, invites by e-mail on approval, and signs up only with the invitation', async () => {
    expect(
      (await root.request('PUT', '/rest/v1/admin/settings', { signup_mode: 'request' })).status,
    ).toBe(200);
    const email = 'walk-newcomer@example.com';
    const without = await t
      .client()
      .signUp(email)
      .then((r) => r as unknown as { status: number; body: { message?: string } });
    expect(without.status).toBe(403);
    expect(without.body.message).toBe(peopleMessages.signUpByRequest);

    const asked = await t
      .client()
      .post('/rest/v1/access-requests', { email, reason: 'New on the team' });
    expect(asked.status).toBe(202);
    await t.deps.mailer.settled();
    const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.email, email));
    const approved = await admin.post<AccessRequest>(
      `/rest/v1/admin/access-requests/${row!.id}/approve`,
    );
    expect(approved.body.status).toBe('approved');

    const mail = (await t.deliveredTo(email)).find((m) => m.template === 'access_invitation')!;
    const link = new URL(/http:\/\/localhost:8080\/auth\?\S+/.exec(mail.text!)![0]);
    expect(link.searchParams.get('email')).toBe(email);
    const invite = link.searchParams.get('invite')!;

    const guest = t.client();
    const signedUp = await guest.request<{ user: { id: string } }>(
      'POST',
      '/auth/v1/sign-up/email',
      { email, password: 'correct-horse-1', name: 'Newcomer', invite },
    );
    expect(signedUp.status).toBe(200);
    expect((await guest.get('/rest/v1/profile')).status).toBe(200);
    const [used] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, row!.id));
    expect(used!.status).toBe('used');
    await root.request('PUT', '/rest/v1/admin/settings', { signup_mode: 'open' });
  });
});
