import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitWindows } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { startTestApp, type TestApp, type TestResponse } from '../test/harness.ts';

const { points, blockSeconds } = rateLimitWindows.auth;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.user('limited@example.com', 'right-password-1');
});
afterAll(() => t.close());

type Caller = ReturnType<TestApp['client']>;
const wrongSignIn = (caller: Caller) => caller.signIn('limited@example.com', 'wrong-password-1');
/** Counted like any sign-in, but refused before a password hash is computed: keeps the file fast. */
const cheapSignIn = (caller: Caller) => caller.signIn('not-an-email', 'wrong-password-1');

const expectRateLimited = (res: TestResponse) => {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(blockSeconds);
  expect(res.body).toMatchObject({
    error: messages.rateLimit.operation('Authentication', retryAfter),
  });
};

describe('the auth rate limit (spec §9)', () => {
  it(`lets ${points} credential attempts from one address through and answers the next with 429`, async () => {
    const caller = t.client();
    for (let attempt = 1; attempt <= points; attempt++) {
      expect((await wrongSignIn(caller)).status, `attempt ${attempt}`).toBe(401);
    }
    const blocked = await wrongSignIn(caller);
    expectRateLimited(blocked);
    expect(blocked.headers.get('retry-after')).toBe(String(blockSeconds));

    // Even the right password waits out the block.
    expectRateLimited(await caller.signIn('limited@example.com', 'right-password-1'));
  });

  it('does not touch the budget of another address', async () => {
    const noisy = t.client();
    for (let attempt = 0; attempt <= points; attempt++) await cheapSignIn(noisy);
    expectRateLimited(await cheapSignIn(noisy));

    const other = t.client();
    expect((await other.signIn('limited@example.com', 'right-password-1')).status).toBe(200);
  });

  it('does not count get-session reads', async () => {
    const caller = t.client();
    for (let read = 0; read < points * 2; read++) {
      expect((await caller.get('/auth/v1/get-session')).status).toBe(200);
    }
    for (let attempt = 1; attempt <= points; attempt++) {
      expect((await cheapSignIn(caller)).status, `attempt ${attempt}`).toBe(400);
    }
    expectRateLimited(await wrongSignIn(caller));
  });

  it('counts sign-up, reset requests and resets against the same budget', async () => {
    const caller = t.client();
    const calls = [
      () => caller.signUp('limited@example.com'),
      () => caller.post('/auth/v1/request-password-reset', { email: 'nobody@example.com' }),
      () =>
        caller.post('/auth/v1/reset-password', { token: 'made-up', newPassword: 'x-password-1' }),
    ];
    for (let attempt = 0; attempt < points; attempt++) {
      expect((await calls[attempt % calls.length]!()).status).not.toBe(429);
    }
    expectRateLimited(await wrongSignIn(caller));
  });

  it('holds across server instances that share one database', async () => {
    const second = await startTestApp({ database: t.database });
    try {
      const ip = '203.0.113.77';
      const onFirst = t.client(ip);
      const onSecond = second.client(ip);
      const half = points / 2;
      for (let attempt = 0; attempt < half; attempt++) {
        expect((await cheapSignIn(onFirst)).status).toBe(400);
      }
      for (let attempt = 0; attempt < points - half; attempt++) {
        expect((await cheapSignIn(onSecond)).status).toBe(400);
      }
      expectRateLimited(await wrongSignIn(onSecond));
      expectRateLimited(await wrongSignIn(onFirst));
    } finally {
      await second.close();
    }
  });
});
