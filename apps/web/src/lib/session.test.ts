import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { ApiError } from './api-error';
import { fetchSession, waitForAuth } from './session';

describe('waiting for auth', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('tries 3 times, 100 ms then 200 ms apart, then says the auth system is unavailable', async () => {
    const times: number[] = [];
    const load = vi.fn(async () => {
      times.push(Date.now());
      throw new ApiError(503, 'down');
    });
    const waited = waitForAuth(load);
    const outcome = expect(waited).rejects.toThrow(messages.session.unavailable);
    await vi.advanceTimersByTimeAsync(1000);
    await outcome;
    expect(times).toEqual([0, 100, 300]);
  });

  it('answers as soon as one attempt does', async () => {
    const load = vi
      .fn<() => Promise<null>>()
      .mockRejectedValueOnce(new Error('blip'))
      .mockResolvedValueOnce(null);
    const waited = waitForAuth(load);
    await vi.advanceTimersByTimeAsync(100);
    expect(await waited).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('fetching the session', () => {
  it('gives up after 4 s with "Session fetch timeout"', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new DOMException('The operation timed out.', 'TimeoutError'))),
    );
    await expect(fetchSession()).rejects.toThrow(messages.session.fetchTimeout);
    expect(timeout).toHaveBeenCalledWith(4000);
  });

  it('reads a 401 as signed out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ error: 'no' }, { status: 401 })),
    );
    expect(await fetchSession()).toBeNull();
  });
});
