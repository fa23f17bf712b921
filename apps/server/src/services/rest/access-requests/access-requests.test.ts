import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessRequestLimit } from '@chorus/shared/limits';
import { peopleMessages } from '@chorus/shared/messages';
import { accessRequests } from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await t.user('requests-root@example.com');
});
afterAll(() => t.close());

/** Asks, then waits for the request to be recorded (beside the answer: no job queue here). */
const ask = async (email: string, reason = 'I run the support team.', client = t.client()) => {
  const res = await client.post<{ message: string }>('/rest/v1/access-requests', { email, reason });
  await t.deps.mailer.settled();
  return res;
};

describe('POST /rest/v1/access-requests', () => {
  it('stores a request from a guest and answers politely', async () => {
    const res = await ask('  Newcomer@Example.com ');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: peopleMessages.accessRequestReceived });
    const rows = await t.db.select().from(accessRequests);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: 'newcomer@example.com',
      reason: 'I run the support team.',
      status: 'pending',
      invite_token_hash: null,
    });
  });

  it('keeps one pending request per address, whatever the case', async () => {
    const again = await ask('NEWCOMER@example.com', 'Asking once more');
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ message: peopleMessages.accessRequestReceived });
    expect(await t.db.select().from(accessRequests)).toHaveLength(1);
  });

  it('answers the same for an address that already has an account, and stores nothing', async () => {
    const res = await ask('requests-root@example.com');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: peopleMessages.accessRequestReceived });
    expect(await t.db.select().from(accessRequests)).toHaveLength(1);
  });

  it('answers an invalid address or a missing reason with 400', async () => {
    for (const body of [
      { email: 'not-an-address', reason: 'x' },
      { email: 'ok@example.com', reason: '   ' },
      { email: 'ok@example.com', reason: 'x'.repeat(1001) },
      { email: 'ok@example.com' },
    ]) {
      expect((await t.client().post('/rest/v1/access-requests', body)).status).toBe(400);
    }
  });

  it('limits requests per client address with 429 and Retry-After', async () => {
    const client = t.client();
    for (let i = 0; i < accessRequestLimit.points; i += 1) {
      expect((await ask(`flood-${i}@example.com`, 'x', client)).status).toBe(202);
    }
    const refused = await ask('flood-last@example.com', 'x', client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('other-address@example.com', 'x')).status).toBe(202);
  });
});
