import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientErrorRow } from '@chorus/shared/api/client-errors';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

type ListBody = { errors: ClientErrorRow[]; total: number };

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp();
  // The first account on the empty database becomes super_admin.
  admin = await t.user('root@example.com', 'correct-horse-1', 'Root');
  plain = await t.user('plain@example.com', 'correct-horse-1', 'Plain Person');
  const reports = [
    [t.client(), 'first: guest crash'],
    [plain, 'second: plain user fetch failed'],
    [t.client(), 'third: guest async'],
  ] as const;
  for (const [caller, message] of reports) {
    const res = await caller.request(
      'POST',
      '/rest/v1/client-errors',
      { kind: 'other', message },
      {
        'user-agent': 'TestBrowser/1.0',
      },
    );
    if (res.status !== 201) throw new Error(`report failed: ${JSON.stringify(res.body)}`);
  }
});
afterAll(() => t.close());

describe('GET /rest/v1/admin/client-errors', () => {
  it('refuses a guest with 401 and a plain user with 403, showing no report', async () => {
    const guest = await t.client().get('/rest/v1/admin/client-errors');
    expect(guest.status).toBe(401);
    const res = await plain.get('/rest/v1/admin/client-errors');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String), code: 'auth:forbidden' });
    expect(JSON.stringify(res.body)).not.toContain('plain user fetch failed');
  });

  it('lists every report newest first, with who sent it and the user agent, for an admin', async () => {
    const res = await admin.get<ListBody>('/rest/v1/admin/client-errors');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.errors.map((e) => e.message)).toEqual([
      'third: guest async',
      'second: plain user fetch failed',
      'first: guest crash',
    ]);
    expect(res.body.errors[1]).toEqual({
      id: expect.any(String),
      user_id: plain.id,
      kind: 'other',
      message: 'second: plain user fetch failed',
      stack: null,
      url: null,
      user_agent: 'TestBrowser/1.0',
      details: {},
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(res.body.errors[0]!.user_id).toBeNull();
  });

  it('pages with limit and offset, and answers a bad page with 400', async () => {
    const page = await admin.get<ListBody>('/rest/v1/admin/client-errors?limit=1&offset=1');
    expect(page.body.total).toBe(3);
    expect(page.body.errors.map((e) => e.message)).toEqual(['second: plain user fetch failed']);
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'limit=100000']) {
      expect((await admin.get(`/rest/v1/admin/client-errors?${q}`)).status, q).toBe(400);
    }
  });
});
