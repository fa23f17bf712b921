import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '@chorus/shared/api/admin';
import {
  accessRequests,
  clientErrors,
  conversations,
  messages,
} from '../../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';
import { signUpAdminTrio, type TestUser } from '../test-users.ts';

let t: TestApp;
let root: TestUser;
let admin: TestUser;
let plain: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  ({ root, admin, plain } = await signUpAdminTrio(t, 'overview'));
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
    // Active means a message sent or an AI call made: the two admins only signed in. Messages
    // are the ones people sent, not the replies (activity.ts).
    expect(res.body).toEqual({
      users_total: 3,
      active_today: 1,
      messages_today: 1,
      errors_today: 2,
      errors_breakdown: { client_errors: 1, failed_replies: 1 },
      pending_access_requests: 1,
      signup_mode: 'open',
      // PGlite ships pgvector; the PostgreSQL the tests run on has none.
      knowledge_search: t.database.driver === 'pglite' ? 'hybrid' : 'full_text',
    });
    expect((await root.get('/rest/v1/admin/overview')).status).toBe(200);
  });

  it('refuses a guest with 401 and a plain user with 403', async () => {
    expect((await t.client().get('/rest/v1/admin/overview')).status).toBe(401);
    expect((await plain.get('/rest/v1/admin/overview')).status).toBe(403);
  });
});
