import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorMaxBytes, clientErrorReportLimit } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { clientErrors } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const report = {
  kind: 'render',
  message: 'Cannot read properties of undefined (reading "title")',
  stack: 'TypeError: Cannot read properties of undefined\n    at ChatView (chat.tsx:12:3)',
  url: 'http://localhost:8080/chat/123',
  details: { component: 'ChatView', attempt: 2 },
};
const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chromium/140.0 TestBrowser' };

const rowOf = async (id: string) =>
  (await t.db.select().from(clientErrors).where(eq(clientErrors.id, id)))[0];

describe('POST /rest/v1/client-errors', () => {
  it('stores a guest’s report without a user, with the user agent', async () => {
    const res = await t
      .client()
      .request<{ id: string }>('POST', '/rest/v1/client-errors', report, browser);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String) });
    expect(await rowOf(res.body.id)).toMatchObject({
      user_id: null,
      kind: 'render',
      message: report.message,
      stack: report.stack,
      url: report.url,
      user_agent: browser['user-agent'],
      details: report.details,
    });
  });

  it('stores a signed-in user’s report with their id; optional fields may be left out', async () => {
    const ann = await t.user('reporter@example.com');
    const res = await ann.post<{ id: string }>('/rest/v1/client-errors', {
      kind: 'async',
      message: '  Unhandled rejection  ',
    });
    expect(res.status).toBe(201);
    expect(await rowOf(res.body.id)).toMatchObject({
      user_id: ann.id,
      kind: 'async',
      message: 'Unhandled rejection',
      stack: null,
      url: null,
      details: {},
    });
  });

  it(`refuses a report over ${clientErrorMaxBytes} bytes with 413 and stores nothing`, async () => {
    const before = (await t.db.select().from(clientErrors)).length;
    const big = { ...report, details: { blob: 'x'.repeat(clientErrorMaxBytes) } };
    for (const caller of [t.client(), await t.user('big@example.com')]) {
      const res = await caller.post('/rest/v1/client-errors', big);
      expect(res.status).toBe(413);
      expect(res.body).toEqual({
        error: 'The error report is larger than 16 KB. Shorten the stack or details.',
        code: 'request:too_large',
      });
    }
    expect(await t.db.select().from(clientErrors)).toHaveLength(before);
  });

  it('answers a malformed report with 400 naming what is wrong', async () => {
    const caller = t.client();
    const cases: [unknown, RegExp][] = [
      [{ ...report, kind: 'explosion' }, /^Field kind: /],
      [{ kind: 'other' }, /^Field message: /],
      [{ kind: 'other', message: '   ' }, /^Field message: /],
      [{ ...report, details: ['not', 'a', 'record'] }, /^Field details: /],
      [{ ...report, stack: 'x'.repeat(8001) }, /^Field stack: /],
      ['{not json', /not valid JSON/],
    ];
    for (const [body, error] of cases) {
      const res = await caller.post<{ error: string; code: string }>(
        '/rest/v1/client-errors',
        body,
      );
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error).toMatch(error);
    }
  });

  it(`takes ${clientErrorReportLimit.points} reports a minute per address or user, then answers 429`, async () => {
    const { points, blockSeconds } = clientErrorReportLimit;
    const noisy = t.client();
    for (let n = 1; n <= points; n++) {
      expect((await noisy.post('/rest/v1/client-errors', report)).status, `report ${n}`).toBe(201);
    }
    const blocked = await noisy.post('/rest/v1/client-errors', report);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe(String(blockSeconds));
    expect(blocked.body).toEqual({
      error: messages.rateLimit.operation('Error report', blockSeconds),
      code: 'rate_limit:exceeded',
    });
    // The budget is the reporter's own: other data calls and other reporters go on.
    expect((await noisy.get('/rest/v1/profile')).status).toBe(401);
    expect((await t.client().post('/rest/v1/client-errors', report)).status).toBe(201);

    const bea = await t.user('noisy-user@example.com');
    for (let n = 0; n < points; n++) await bea.post('/rest/v1/client-errors', report);
    expect((await bea.post('/rest/v1/client-errors', report)).status).toBe(429);
    const elsewhere = t.client();
    for (const [k, v] of bea.cookies) elsewhere.cookies.set(k, v);
    expect((await elsewhere.post('/rest/v1/client-errors', report)).status).toBe(429);
  });
});
