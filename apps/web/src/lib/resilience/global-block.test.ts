import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GlobalBlock, type RateLimitNotifier } from './global-block';

const notifier = (): RateLimitNotifier & { calls: string[] } => {
  const calls: string[] = [];
  return {
    calls,
    paused: () => calls.push('paused'),
    restored: () => calls.push('restored'),
    recoveryFailed: () => calls.push('recoveryFailed'),
  };
};

describe('the global block after a 429', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it('lasts 30 s without Retry-After, honours Retry-After, and never exceeds 5 minutes', () => {
    expect(GlobalBlock.blockMs(undefined)).toBe(30_000);
    expect(GlobalBlock.blockMs(8)).toBe(8000);
    expect(GlobalBlock.blockMs(299)).toBe(299_000);
    expect(GlobalBlock.blockMs(301)).toBe(300_000);
    expect(GlobalBlock.blockMs(3600)).toBe(300_000);
  });

  it('blocks for the Retry-After time, shows the pause toast once, and then ends by itself', () => {
    const notes = notifier();
    const block = new GlobalBlock({ notifier: notes });
    block.trip(8, 'Data rate limited. Retry after 8 seconds.');
    expect(block.getSnapshot()).toEqual({
      blockedUntil: 1_008_000,
      reason: 'Data rate limited. Retry after 8 seconds.',
    });
    block.trip(2);
    expect(block.remainingMs()).toBe(8000);
    expect(notes.calls).toEqual(['paused']);
    vi.advanceTimersByTime(7999);
    expect(block.remainingMs()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(block.getSnapshot().blockedUntil).toBeNull();
  });

  it('cools down 5 s doubling per recent 429 up to 60 s, plus less than 1 s of jitter', () => {
    const calm = new GlobalBlock({ notifier: notifier(), random: () => 0 });
    expect([1, 2, 3, 4, 5, 6].map((n) => calm.cooldownMs(n))).toEqual([
      5000, 10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    const jittery = new GlobalBlock({ notifier: notifier(), random: () => 0.9999 });
    expect(jittery.cooldownMs(1)).toBe(5999);
  });

  it('forgets its 429 count after 5 quiet minutes', () => {
    const block = new GlobalBlock({ notifier: notifier() });
    block.trip(1);
    block.trip(1);
    expect(block.recentErrors()).toBe(2);
    vi.advanceTimersByTime(299_999);
    expect(block.recentErrors()).toBe(2);
    vi.advanceTimersByTime(1);
    expect(block.recentErrors()).toBe(0);
    block.trip(1);
    expect(block.recentErrors()).toBe(1);
  });

  it('recovers after the block and the cooldown, then says the connection is restored', async () => {
    const notes = notifier();
    const block = new GlobalBlock({ notifier: notes, random: () => 0 });
    const handler = vi.fn(() => Promise.resolve());
    block.setRecoveryHandler(handler);
    block.trip(8);
    await vi.advanceTimersByTimeAsync(8000); // block over, cooldown 5 s begins
    await vi.advanceTimersByTimeAsync(4999);
    expect(handler).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1); // recovery starts; first attempt after 1 s
    await vi.advanceTimersByTimeAsync(999);
    expect(handler).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(handler).toHaveBeenCalledOnce();
    expect(notes.calls).toEqual(['paused', 'restored']);
  });

  it('makes at most 3 recovery attempts, 1 s, 2 s and 4 s apart, then says they failed', async () => {
    const notes = notifier();
    const block = new GlobalBlock({ notifier: notes });
    const times: number[] = [];
    block.setRecoveryHandler(() => {
      times.push(Date.now());
      return Promise.reject(new Error('still down'));
    });
    const start = Date.now();
    const recovered = block.recover();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(await recovered).toBe(false);
    expect(times.map((t) => t - start)).toEqual([1000, 3000, 7000]);
    expect(notes.calls).toEqual(['recoveryFailed']);
  });

  it('caps the recovery backoff at 10 s and waits 5 s between recoveries', async () => {
    const { backoffMs } = await import('./sleep');
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, 1000, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
    const block = new GlobalBlock({ notifier: notifier() });
    const handler = vi.fn(() => Promise.resolve());
    block.setRecoveryHandler(handler);
    const first = block.recover();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await first).toBe(true);
    expect(await block.recover()).toBe(false); // 1 s after the last one began
    await vi.advanceTimersByTimeAsync(4000);
    const third = block.recover();
    await vi.advanceTimersByTimeAsync(1000);
    expect(await third).toBe(true);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('ends at once on Retry Now and tries to recover', async () => {
    const block = new GlobalBlock({ notifier: notifier() });
    const handler = vi.fn(() => Promise.resolve());
    block.setRecoveryHandler(handler);
    block.trip(undefined);
    expect(block.remainingMs()).toBe(30_000);
    block.retryNow();
    expect(block.getSnapshot().blockedUntil).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(handler).toHaveBeenCalledOnce();
  });

  it('stops recovering when a recovery attempt meets a new rate limit', async () => {
    const notes = notifier();
    const block = new GlobalBlock({ notifier: notes });
    const handler = vi.fn(() => {
      block.trip(30);
      return Promise.reject(new Error('429 Too Many Requests'));
    });
    block.setRecoveryHandler(handler);
    const recovered = block.recover();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await recovered).toBe(false);
    expect(handler).toHaveBeenCalledOnce();
    expect(notes.calls).toEqual(['paused']);
  });
});
