import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';
import { waitAfterFailures } from './sign-in-throttle.ts';

// Issue 13, point 7: failed sign-ins are limited per account too, beside the per-address limit,
// with growing waits that never lock the owner out for long.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.user('throttle-root@example.com');
});
afterAll(() => t.close());

/** Each attempt from an address of its own, as a spread-out guesser would. */
const signIn = (email: string, password: string) => t.client().signIn(email, password);

/** As if `ms` had passed since the account's last failure. */
const timePasses = (email: string, ms: number) =>
  t.db
    .update(rateLimits)
    .set({ expire: sql`${rateLimits.expire} - ${ms}` })
    .where(eq(rateLimits.key, `signin-fail:${email}`));

describe('failed sign-ins to one account', () => {
  it('wait 1 s doubling up to 60 s after the fifth, and never longer', () => {
    expect([1, 5, 6, 7, 8, 12, 13, 40].map(waitAfterFailures)).toEqual([
      0, 0, 1000, 2000, 4000, 60_000, 60_000, 60_000,
    ]);
  });

  it('slow every address guessing the account, and the owner comes back once the wait is over', async () => {
    const owner = await t.user('throttle-owner@example.com');
    for (let i = 0; i < 6; i++) {
      expect((await signIn(owner.email, `guess-number-${i}`)).status).toBe(401);
    }
    const held = await signIn(owner.email, 'correct-horse-1');
    expect(held.status).toBe(429);
    expect(held.headers.get('Retry-After')).toBe('1');
    expect(held.body).toMatchObject({ code: 'TOO_MANY_FAILED_SIGN_INS' });

    // Another account is not touched.
    const other = await t.user('throttle-other@example.com');
    expect((await signIn(other.email, 'correct-horse-1')).status).toBe(200);

    await timePasses(owner.email, 1_000);
    expect((await signIn(owner.email, 'correct-horse-1')).status).toBe(200);
    // A success forgets the failures: the next mistake is free again.
    expect((await signIn(owner.email, 'one-more-typo-1')).status).toBe(401);
    expect((await signIn(owner.email, 'correct-horse-1')).status).toBe(200);
  });

  it('are forgotten 15 minutes after the last one', async () => {
    const ann = await t.user('throttle-ann@example.com');
    for (let i = 0; i < 8; i++) await signIn(ann.email, `guess-number-${i}`);
    expect((await signIn(ann.email, 'correct-horse-1')).status).toBe(429);
    await timePasses(ann.email, 15 * 60_000);
    expect((await signIn(ann.email, 'correct-horse-1')).status).toBe(200);
  });
});
