import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dedupTtlMs, RequestDedup } from './request-dedup';

describe('request de-duplication', () => {
  let dedup: RequestDedup;
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    dedup = new RequestDedup();
  });
  afterEach(() => {
    dedup.stop();
    vi.useRealTimers();
  });

  it('keeps answers 30 s for auth, 60 s for the profile, 30 s for usage and 10 s otherwise', () => {
    expect(dedupTtlMs('GET /auth/v1/get-session')).toBe(30_000);
    expect(dedupTtlMs('session')).toBe(30_000);
    expect(dedupTtlMs('GET /rest/v1/profile')).toBe(60_000);
    expect(dedupTtlMs('usage today')).toBe(30_000);
    expect(dedupTtlMs('GET /rest/v1/conversations')).toBe(10_000);
  });

  it('shares one request between identical reads in flight', async () => {
    let resolve: (value: string) => void = () => {};
    const load = vi.fn(() => new Promise<string>((r) => (resolve = r)));
    const first = dedup.run('a', 0, load);
    const second = dedup.run('a', 0, load);
    resolve('answer');
    expect(await Promise.all([first, second])).toEqual(['answer', 'answer']);
    expect(load).toHaveBeenCalledOnce();
    await dedup.run('a', 0, async () => 'again');
    expect(dedup.size()).toEqual({ inFlight: 0, recent: 0 });
  });

  it('reuses a recent answer within its TTL only', async () => {
    const load = vi.fn(async () => Date.now());
    expect(await dedup.run('k', 10_000, load)).toBe(0);
    vi.advanceTimersByTime(9999);
    expect(await dedup.run('k', 10_000, load)).toBe(0);
    vi.advanceTimersByTime(1);
    expect(await dedup.run('k', 10_000, load)).toBe(10_000);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets every answer after a write', async () => {
    const load = vi.fn(async () => 'x');
    await dedup.run('k', 10_000, load);
    dedup.invalidate();
    await dedup.run('k', 10_000, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('lets one caller stop waiting without cancelling the shared request', async () => {
    let resolve: (value: string) => void = () => {};
    const load = () => new Promise<string>((r) => (resolve = r));
    const controller = new AbortController();
    const first = dedup.run('k', 0, load, controller.signal);
    const second = dedup.run('k', 0, load);
    controller.abort(new Error('left the page'));
    await expect(first).rejects.toThrow('left the page');
    resolve('still here');
    expect(await second).toBe('still here');
  });

  it('drops expired answers every 5 minutes', async () => {
    await dedup.run('short', 10_000, async () => 1);
    await dedup.run('long', 600_000, async () => 2);
    expect(dedup.size().recent).toBe(2);
    vi.advanceTimersByTime(299_999);
    expect(dedup.size().recent).toBe(2);
    vi.advanceTimersByTime(1);
    expect(dedup.size().recent).toBe(1);
  });
});
