import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessRequest } from '@chorus/shared/api/access-requests';
import type { SignupModeResponse } from '@chorus/shared/api/settings';
import { peopleMessages } from '@chorus/shared/messages';
import { accessRequests, appSettings, users } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
type Client = Awaited<ReturnType<TestApp['user']>>;
let root: Client;

const setMode = (mode: 'open' | 'request') =>
  root.request('PUT', '/rest/v1/admin/settings', { signup_mode: mode });

const latestInviteToken = async (email: string) => {
  const mails = await t.deliveredTo(email);
  const invitation = mails.filter((m) => m.template === 'access_invitation').at(-1);
  return /[?&]invite=([\w-]+)/.exec(invitation!.text!)![1]!;
};

/** Asks for access, approves as root, and returns the token from the invitation mail. */
const invitationFor = async (email: string) => {
  const asked = await t
    .client()
    .post('/rest/v1/access-requests', { email, reason: 'Joining the team' });
  expect(asked.status).toBe(202);
  await t.deps.mailer.settled();
  const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.email, email));
  const approved = await root.post<AccessRequest>(
    `/rest/v1/admin/access-requests/${row!.id}/approve`,
  );
  expect(approved.status).toBe(200);
  const token = await latestInviteToken(email);
  return { id: row!.id, token };
};

const signUp = (email: string, extra: Record<string, unknown> = {}, query = '') =>
  t
    .client()
    .request<{ user?: { id: string }; message?: string }>(
      'POST',
      `/auth/v1/sign-up/email${query}`,
      { email, password: 'correct-horse-1', name: 'New Person', ...extra },
    );

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('sign-up by request', () => {
  it('always lets the first account on an empty database in, even in request mode', async () => {
    // No account yet, so no super admin could have opened sign-up: the first one must get in.
    await t.db.insert(appSettings).values({ key: 'signup_mode', value: 'request' });
    const first = await signUp('signup-root@example.com');
    expect(first.status).toBe(200);
    root = Object.assign(t.client(), { id: first.body.user!.id, email: 'signup-root@example.com' });
    expect((await root.signIn('signup-root@example.com')).status).toBe(200);
    const mode = await t.client().get<SignupModeResponse>('/rest/v1/signup-mode');
    expect(mode.body.signup_mode).toBe('request');
  });

  it('answers an address that has an account exactly as one that has none', async () => {
    const taken = await signUp('signup-root@example.com');
    const free = await signUp('nobody-here@example.com');
    expect(taken.status).toBe(403);
    expect(taken.body).toEqual(free.body);
    const takenWithInvite = await signUp('signup-root@example.com', { invite: 'y'.repeat(43) });
    const freeWithInvite = await signUp('nobody-here@example.com', { invite: 'y'.repeat(43) });
    expect(takenWithInvite.status).toBe(403);
    expect(takenWithInvite.body).toEqual(freeWithInvite.body);
  });

  it('refuses a sign-up without an invitation with 403, pointing to /request-access', async () => {
    const res = await signUp('stranger@example.com');
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(peopleMessages.signUpByRequest);
    expect(res.body.message).toContain('/request-access');
    expect(await t.db.select().from(users).where(eq(users.email, 'stranger@example.com'))).toEqual(
      [],
    );
  });

  it('lets an invited address sign up once with its token, in the body or the query', async () => {
    const body = await invitationFor('invited@example.com');
    const res = await signUp('invited@example.com', { invite: body.token });
    expect(res.status).toBe(200);
    const [row] = await t.db.select().from(accessRequests).where(eq(accessRequests.id, body.id));
    expect(row!.status).toBe('used');

    const viaQuery = await invitationFor('query@example.com');
    const q = await signUp('Query@Example.com', {}, `?invite=${viaQuery.token}`);
    expect(q.status).toBe(200);
  });

  it('refuses a used token, a token for another address, a wrong token and an expired one', async () => {
    const used = await invitationFor('once@example.com');
    expect((await signUp('once@example.com', { invite: used.token })).status).toBe(200);
    const reuse = await signUp('once-more@example.com', { invite: used.token });
    expect(reuse.status).toBe(403);
    expect(reuse.body.message).toBe(peopleMessages.invitationInvalid);

    const other = await invitationFor('owner@example.com');
    expect((await signUp('thief@example.com', { invite: other.token })).status).toBe(403);
    expect((await signUp('owner@example.com', { invite: 'x'.repeat(43) })).status).toBe(403);

    await t.db
      .update(accessRequests)
      .set({ invite_expires_at: new Date(Date.now() - 1000) })
      .where(eq(accessRequests.id, other.id));
    const expired = await signUp('owner@example.com', { invite: other.token });
    expect(expired.status).toBe(403);
    expect(expired.body.message).toBe(peopleMessages.invitationInvalid);
  });

  it('voids an invitation when the request is declined or approved again', async () => {
    const first = await invitationFor('changed@example.com');
    const second = await root.post(`/rest/v1/admin/access-requests/${first.id}/approve`);
    expect(second.status).toBe(200);
    expect((await signUp('changed@example.com', { invite: first.token })).status).toBe(403);
    const fresh = await latestInviteToken('changed@example.com');
    await root.post(`/rest/v1/admin/access-requests/${first.id}/decline`);
    expect((await signUp('changed@example.com', { invite: fresh })).status).toBe(403);
  });

  it('lets anyone sign up again once the mode is back to open', async () => {
    expect((await setMode('open')).status).toBe(200);
    expect((await signUp('walk-in@example.com')).status).toBe(200);
  });
});
