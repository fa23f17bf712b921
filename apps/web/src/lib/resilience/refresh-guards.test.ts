import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { ApiError } from '../api-error';
import {
  isRetryableRefreshError,
  markRefreshed,
  RefreshBreaker,
  refreshAllowed,
  withRefreshLock,
} from './refresh-guards';

describe('the refresh circuit breaker', () => {
  it('opens after 3 failures, stays open 5 minutes, then resets', () => {
    const breaker = new RefreshBreaker();
    breaker.failure(new ApiError(503, 'down'), 0);
    breaker.failure(new ApiError(503, 'down'), 0);
    expect(breaker.isOpen(0)).toBe(false);
    breaker.failure(new ApiError(503, 'down'), 0);
    expect(breaker.isOpen(0)).toBe(true);
    expect(() => breaker.assertClosed(1000)).toThrow(messages.session.breakerOpen(299));
    expect(breaker.isOpen(299_999)).toBe(true);
    expect(breaker.isOpen(300_000)).toBe(false);
    breaker.failure(new ApiError(503, 'down'), 300_000);
    expect(breaker.isOpen(300_000)).toBe(false);
  });

  it('opens at once on a rate-limit error', () => {
    const breaker = new RefreshBreaker();
    breaker.failure(new ApiError(429, 'Token refresh rate limited. Retry after 60 seconds.'), 0);
    expect(breaker.isOpen(0)).toBe(true);
  });

  it('closes its count on a success', () => {
    const breaker = new RefreshBreaker();
    breaker.failure(new Error('x'), 0);
    breaker.failure(new Error('x'), 0);
    breaker.success();
    breaker.failure(new Error('x'), 0);
    expect(breaker.isOpen(0)).toBe(false);
  });
});

describe('refresh failures', () => {
  it('are retryable on 502, 503 and 504 (and lost connections, time-outs, rate limits) only', () => {
    for (const status of [0, 408, 429, 502, 503, 504]) {
      expect(isRetryableRefreshError(new ApiError(status, 'x'))).toBe(true);
    }
    for (const status of [400, 401, 403, 500]) {
      expect(isRetryableRefreshError(new ApiError(status, 'x'))).toBe(false);
    }
  });
});

describe('the refresh interval and lock', () => {
  beforeEach(() => vi.useFakeTimers({ now: 10_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('allows one refresh per 5 minutes across tabs', () => {
    expect(refreshAllowed()).toBe(true);
    markRefreshed();
    vi.advanceTimersByTime(299_999);
    expect(refreshAllowed()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(refreshAllowed()).toBe(true);
  });

  it('lets one tab hold the local-storage lease for at most 15 s', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    let release: () => void = () => {};
    const held = withRefreshLock('tab-a', () => new Promise<void>((r) => (release = r)));
    expect(await withRefreshLock('tab-b', async () => 'ran')).toEqual({ ran: false });
    release();
    expect(await held).toEqual({ ran: true, value: undefined });
    expect(await withRefreshLock('tab-b', async () => 'ran')).toEqual({ ran: true, value: 'ran' });

    const stuck = withRefreshLock('tab-a', () => new Promise(() => {}));
    const outcome = expect(stuck).rejects.toThrow('Auth refresh lock expired');
    await vi.advanceTimersByTimeAsync(15_000);
    await outcome;
    expect(await withRefreshLock('tab-b', async () => 'free')).toEqual({
      ran: true,
      value: 'free',
    });
  });

  it('uses the Web Locks API where the browser has it', async () => {
    const request = vi.fn(
      async (_name: string, _options: LockOptions, callback: (lock: Lock | null) => unknown) =>
        callback(null),
    );
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    expect(await withRefreshLock('tab-a', async () => 'ran')).toEqual({ ran: false });
    expect(request).toHaveBeenCalledWith(
      'chorus.auth-refresh-lock',
      { ifAvailable: true },
      expect.any(Function),
    );
  });
});
