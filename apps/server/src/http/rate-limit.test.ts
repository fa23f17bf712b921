import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rateLimitWindows,
  serverDataPointsDefault,
  type RateLimitCategory,
} from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { loadConfig } from '../config.ts';
import { connectPostgres, type Database } from '../db/client.ts';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import {
  HARNESS_DATA_POINTS,
  startTestApp,
  type TestApp,
  type TestResponse,
} from '../test/harness.ts';

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
    // Malformed attempts count like any other and cost no password hash; the last one within
    // the budget is a real wrong password, answered 401, not 429.
    for (let attempt = 1; attempt < points; attempt++) {
      expect((await cheapSignIn(caller)).status, `attempt ${attempt}`).toBe(400);
    }
    expect((await wrongSignIn(caller)).status, `attempt ${points}`).toBe(401);
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

type Probe = { category: RateLimitCategory; call: () => Promise<TestResponse>; key: string };

describe('every server window (spec §9) in the shared store', () => {
  it('opens a 60 s window on the first counted call, keyed by address, user or guest address', async () => {
    const guest = t.client();
    const ann = await t.user('windows@example.com');
    const probes: Probe[] = [
      { category: 'auth', call: () => cheapSignIn(guest), key: guest.ip },
      {
        category: 'token_refresh',
        call: () => ann.post('/auth/v1/refresh-session'),
        key: ann.id,
      },
      {
        category: 'conversation_create',
        call: () => ann.post('/rest/v1/conversations', {}),
        key: ann.id,
      },
      { category: 'data', call: () => guest.get('/rest/v1/profile'), key: `ip:${guest.ip}` },
    ];
    for (const { category, call, key } of probes) {
      const before = Date.now();
      await call();
      const state = await t.deps.limiters[category].get(key);
      const w = rateLimitWindows[category];
      expect(state?.consumedPoints, category).toBe(1);
      expect(state!.msBeforeNext, category).toBeGreaterThan(w.windowSeconds * 1000 - 5000);
      expect(state!.msBeforeNext, category).toBeLessThanOrEqual(
        w.windowSeconds * 1000 + (Date.now() - before),
      );
    }
    expect((await t.deps.limiters.data.get(`user:${ann.id}`))?.consumedPoints).toBe(1);
  });

  it('allows 20 conversations a minute per user, then answers 429 for 10 s', async () => {
    const w = rateLimitWindows.conversation_create;
    const bob = await t.user('burst@example.com');
    for (let n = 1; n <= w.points; n++) {
      expect((await bob.post('/rest/v1/conversations', {})).status, `create ${n}`).toBe(201);
    }
    const blocked = await bob.post('/rest/v1/conversations', {});
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe(String(w.blockSeconds));
    expect(blocked.body).toEqual({
      error: messages.rateLimit.operation('Conversation creation', w.blockSeconds),
      code: 'rate_limit:exceeded',
    });
    const other = await t.user('calm@example.com');
    expect((await other.post('/rest/v1/conversations', {})).status).toBe(201);
  });
});

describe('the data rate limit (ADR 009)', () => {
  const dataPoints = 6;
  const { blockSeconds: dataBlock } = rateLimitWindows.data;
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ env: { RATE_LIMIT_DATA_POINTS: String(dataPoints) } });
    await small.user('first-admin@example.com');
  });
  afterAll(() => small.close());

  const expectDataLimited = (res: TestResponse) => {
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe(String(dataBlock));
    expect(res.body).toEqual({
      error: messages.rateLimit.operation('Data request', dataBlock),
      code: 'rate_limit:exceeded',
    });
  };

  it('defaults to a budget sized for heavy use, far above the browser’s own 50, and can be set', () => {
    expect(t.config.rateLimitDataPoints).toBe(HARNESS_DATA_POINTS);
    expect(loadConfig({ DATA_DIR: t.config.dataDir }).rateLimitDataPoints).toBe(
      serverDataPointsDefault,
    );
    expect(serverDataPointsDefault).toBeGreaterThanOrEqual(rateLimitWindows.data.points * 10);
    expect(
      loadConfig({ DATA_DIR: t.config.dataDir, RATE_LIMIT_DATA_POINTS: '1200' })
        .rateLimitDataPoints,
    ).toBe(1200);
    for (const bad of ['0', '-5', '2.5', 'lots']) {
      expect(() => loadConfig({ DATA_DIR: t.config.dataDir, RATE_LIMIT_DATA_POINTS: bad })).toThrow(
        /RATE_LIMIT_DATA_POINTS/,
      );
    }
  });

  it('counts every /rest/v1 and /functions/v1 call of a user against one budget, then blocks 10 s', async () => {
    const ann = await small.user('data-ann@example.com');
    const calls = [
      () => ann.get('/rest/v1/profile'),
      () => ann.post('/functions/v1/get-enabled-providers'),
      () => ann.get('/rest/v1/conversations'),
    ];
    for (let n = 0; n < dataPoints; n++) {
      expect((await calls[n % calls.length]!()).status, `call ${n + 1}`).toBe(200);
    }
    for (const call of calls) expectDataLimited(await call());

    // Keyed by the user: another address does not help Ann, and Bea keeps her whole budget.
    const annElsewhere = small.client();
    for (const [k, v] of ann.cookies) annElsewhere.cookies.set(k, v);
    expectDataLimited(await annElsewhere.get('/rest/v1/profile'));
    const bea = await small.user('data-bea@example.com');
    for (let n = 0; n < dataPoints; n++) {
      expect((await bea.get('/rest/v1/profile')).status).toBe(200);
    }
    expectDataLimited(await bea.get('/rest/v1/profile'));
  });

  it('keys guests by address, apart from users on that address', async () => {
    const guest = small.client();
    for (let n = 0; n < dataPoints; n++) {
      expect((await guest.get('/rest/v1/profile')).status).toBe(401);
    }
    expectDataLimited(await guest.post('/functions/v1/get-enabled-providers'));
    expect((await small.client().get('/rest/v1/profile')).status).toBe(401);

    // A user signing in from the spent address has a budget of their own.
    expect((await guest.signUp('data-cal@example.com')).status).toBe(200);
    expect((await guest.get('/rest/v1/profile')).status).toBe(200);
  });

  it('does not limit the auth service, the health check or the web app', async () => {
    const guest = small.client();
    for (let n = 0; n < dataPoints; n++) await guest.get('/rest/v1/profile');
    expectDataLimited(await guest.get('/rest/v1/profile'));
    expect((await guest.get('/auth/v1/get-session')).status).toBe(200);
    expect((await guest.get('/healthz')).status).toBe(200);
  });
});

/**
 * Two server instances, each with its own connection pool, on one PostgreSQL database: what a
 * deployment behind a load balancer looks like (ARCHITECTURE §8). PGlite is one process only.
 */
describe.runIf(testDriver() === 'postgres')('two server instances on one PostgreSQL', () => {
  const dataPoints = 4;
  let shared: Awaited<ReturnType<typeof createPostgresDatabaseUrl>>;
  let first: TestApp;
  let second: TestApp;
  const pools: Database[] = [];
  beforeAll(async () => {
    shared = await createPostgresDatabaseUrl();
    pools.push(connectPostgres(shared.url), connectPostgres(shared.url));
    await pools[0]!.migrate();
    const env = {
      // One secret, so a cookie issued by one instance is good on the other.
      AUTH_SECRET: 'a-shared-secret-of-two-instances-0123456789',
      RATE_LIMIT_DATA_POINTS: String(dataPoints),
    };
    first = await startTestApp({ database: pools[0], env });
    second = await startTestApp({ database: pools[1], env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    for (const pool of pools) await pool.close();
    await shared?.drop();
  });

  /** The same browser, its requests landing on either instance. */
  const onBoth = (ip: string) => {
    const a = first.client(ip);
    const b = second.client(ip);
    return {
      a,
      b,
      shareCookies: () => {
        for (const [k, v] of a.cookies) b.cookies.set(k, v);
      },
    };
  };

  it('share one data budget per user', async () => {
    const browser = onBoth('203.0.113.10');
    expect((await browser.a.signUp('two-instances@example.com')).status).toBe(200);
    browser.shareCookies();
    for (let n = 0; n < dataPoints; n++) {
      const instance = n % 2 === 0 ? browser.a : browser.b;
      expect((await instance.get('/rest/v1/profile')).status, `call ${n + 1}`).toBe(200);
    }
    for (const instance of [browser.a, browser.b]) {
      const res = await instance.get('/rest/v1/profile');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe(String(rateLimitWindows.data.blockSeconds));
      expect(res.body).toMatchObject({
        error: messages.rateLimit.operation('Data request', rateLimitWindows.data.blockSeconds),
      });
    }
  });

  it('share one token refresh budget per user and one auth budget per address', async () => {
    const browser = onBoth('203.0.113.11');
    expect((await browser.a.signUp('two-refresh@example.com')).status).toBe(200);
    browser.shareCookies();
    const w = rateLimitWindows.token_refresh;
    for (let n = 0; n < w.points; n++) {
      const instance = n % 2 === 0 ? browser.a : browser.b;
      expect((await instance.post('/auth/v1/refresh-session')).status, `refresh ${n + 1}`).toBe(
        200,
      );
    }
    const refused = await browser.b.post('/auth/v1/refresh-session');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(w.blockSeconds));

    const attacker = onBoth('203.0.113.12');
    for (let n = 0; n < points; n++) {
      await cheapSignIn(n % 2 === 0 ? attacker.a : attacker.b);
    }
    expectRateLimited(await cheapSignIn(attacker.a));
    expectRateLimited(await cheapSignIn(attacker.b));
  });
});
