import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { ClientRateLimiter, rateLimitCategoryOf } from './client-rate-limiter';
import { GlobalBlock } from './global-block';
import { RateLimitedError } from './rate-limit-error';

const quietBlock = () =>
  new GlobalBlock({ notifier: { paused: () => {}, restored: () => {}, recoveryFailed: () => {} } });

describe('the client rate limiter', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('sorts calls into the spec’s four windows', () => {
    expect(rateLimitCategoryOf('POST', '/auth/v1/sign-in/email')).toBe('auth');
    expect(rateLimitCategoryOf('POST', '/auth/v1/refresh-session')).toBe('token_refresh');
    expect(rateLimitCategoryOf('GET', '/auth/v1/get-session')).toBe('data');
    expect(rateLimitCategoryOf('POST', '/rest/v1/conversations')).toBe('conversation_create');
    expect(rateLimitCategoryOf('GET', '/rest/v1/conversations')).toBe('data');
    expect(rateLimitCategoryOf('PATCH', '/rest/v1/conversations/1')).toBe('data');
  });

  it.each([
    ['auth', 10, 30_000],
    ['token_refresh', 5, 60_000],
    ['conversation_create', 20, 10_000],
    ['data', 50, 10_000],
  ] as const)(
    'lets %s make %i calls per 60 s, then blocks it %i ms',
    (category, points, blockMs) => {
      const limiter = new ClientRateLimiter(quietBlock());
      for (let i = 0; i < points; i += 1) expect(limiter.reserve(category)).toBe(0);
      expect(limiter.reserve(category)).toBe(blockMs);
      vi.advanceTimersByTime(blockMs - 1);
      expect(limiter.reserve(category)).toBe(1);
      vi.advanceTimersByTime(1);
      expect(limiter.reserve(category)).toBe(0);
    },
  );

  it('opens a fresh window after 60 s', () => {
    const limiter = new ClientRateLimiter(quietBlock());
    for (let i = 0; i < 10; i += 1) limiter.reserve('auth');
    vi.advanceTimersByTime(59_999);
    expect(limiter.reserve('auth')).toBe(30_000);
    const fresh = new ClientRateLimiter(quietBlock());
    for (let i = 0; i < 10; i += 1) fresh.reserve('auth');
    vi.advanceTimersByTime(60_000);
    expect(fresh.reserve('auth')).toBe(0);
  });

  it('waits out a delay of 10 s or less', async () => {
    const limiter = new ClientRateLimiter(quietBlock());
    for (let i = 0; i < 50; i += 1) await limiter.acquire('data');
    let done = false;
    void limiter.acquire('data').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(9999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });

  it('throws instead of waiting longer than 10 s', async () => {
    const limiter = new ClientRateLimiter(quietBlock());
    for (let i = 0; i < 10; i += 1) await limiter.acquire('auth');
    const refused = limiter.acquire('auth');
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
    await expect(limiter.acquire('auth')).rejects.toThrow(messages.rateLimit.waitSeconds(30));
  });

  it('holds every call while the global block lasts', async () => {
    const block = quietBlock();
    const limiter = new ClientRateLimiter(block);
    block.trip(8);
    let done = false;
    void limiter.acquire('data').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(7999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    block.trip(11);
    await expect(limiter.acquire('data')).rejects.toThrow(messages.rateLimit.waitSeconds(11));
  });

  it('tells how long a call would wait without counting it, and a full window counts down', () => {
    const limiter = new ClientRateLimiter(quietBlock());
    expect(limiter.waitMs('conversation_create')).toBe(0);
    for (let i = 0; i < 20; i += 1) {
      expect(limiter.waitMs('conversation_create')).toBe(0);
      expect(limiter.reserve('conversation_create')).toBe(0);
    }
    expect(limiter.waitMs('conversation_create')).toBe(10_000);
    vi.advanceTimersByTime(4_000);
    expect(limiter.waitMs('conversation_create')).toBe(6_000);
    vi.advanceTimersByTime(6_000);
    expect(limiter.waitMs('conversation_create')).toBe(0);
    expect(limiter.reserve('conversation_create')).toBe(0);
  });
});
