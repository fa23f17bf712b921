import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '@chorus/shared/api/admin';
import {
  accessRequests,
  clientErrors,
  conversations,
  messages,
  profiles,
} from '../../../../db/schema.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

let t: TestApp;
type Client = Awaited<ReturnType<TestApp['user']>>;
let root: Client;
let admin: Client;
let plain: Client;

beforeAll(async () => {
  t = await startTestApp();
  root = await t.user('overview-root@example.com');
  admin = await t.user('overview-admin@example.com');
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
  plain = await t.user('overview-plain@example.com');
});
afterAll(() => t.close());

describe('GET /rest/v1/admin/overview', () => {
  it("counts users, today's active users, messages and errors from real rows", async () => {
    const [conv] = await t.db
      .insert(conversations)
      .values({ user_id: plain.id, title: 'x' })
      .returning();
    const yesterday = new Date(Date.now() - 36 * 60 * 60 * 1000);
    await t.db.insert(messages).values([
      { conversation_id: conv!.id, user_id: plain.id, role: 'user', content: 'hi' },
      { conversation_id: conv!.id, user_id: plain.id, role: 'assistant', status: 'error' },
      { conversation_id: conv!.id, user_id: plain.id, role: 'assistant', status: 'complete' },
      { conversation_id: conv!.id, user_id: plain.id, role: 'user', created_at: yesterday },
    ]);
    await t.db.insert(clientErrors).values([
      { kind: 'render', message: 'boom', user_id: plain.id },
      { kind: 'async', message: 'old', created_at: yesterday },
    ]);
    await t.db.insert(accessRequests).values({ email: 'waiting@example.com', reason: 'please' });

    const res = await admin.get<AdminOverview>('/rest/v1/admin/overview');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      users_total: 3,
      active_today: 3,
      messages_today: 3,
      errors_today: 2,
      errors_breakdown: { client_errors: 1, failed_replies: 1 },
      pending_access_requests: 1,
      signup_mode: 'open',
    });
    expect((await root.get('/rest/v1/admin/overview')).status).toBe(200);
  });

  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get('/rest/v1/admin/overview')).status).toBe(401);
    expect((await plain.get('/rest/v1/admin/overview')).status).toBe(403);
  });
});
