import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { ApiError } from './api-error';
import { setResilienceEnabled } from './resilience/runtime';
import {
  clearSession,
  fetchSession,
  recheckSession,
  sessionQueryKey,
  sessionQueryOptions,
  waitForAuth,
} from './session';

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

describe('rechecking the session', () => {
  afterEach(() => setResilienceEnabled(false));

  it('asks the server again even within the 5 s session cache', async () => {
    setResilienceEnabled(true);
    const session = {
      session: { id: 'session-1', expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      user: { id: 'user-1', email: 'ada@example.com', name: 'Ada' },
    };
    let signedIn = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        signedIn ? Response.json(session) : Response.json({ error: 'no' }, { status: 401 }),
      ),
    );
    const queryClient = new QueryClient();
    const stop = new QueryObserver(queryClient, sessionQueryOptions()).subscribe(() => {});
    await vi.waitFor(() => expect(queryClient.getQueryData(sessionQueryKey)).toEqual(session));
    // Signed out elsewhere a moment later: the cached answer must not stand in for the server's.
    signedIn = false;
    await recheckSession(queryClient);
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
    stop();
  });
});

describe('clearing the session', () => {
  it('tells what already watches the session that it ended, and forgets the rest', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(sessionQueryKey, {
      session: { id: 's1', expiresAt: '2030-01-01T00:00:00.000Z' },
      user: { id: 'u1', email: 'ann@example.com', name: 'Ann' },
    });
    queryClient.setQueryData(['profile'], { id: 'u1' });
    const seen: unknown[] = [];
    const observer = new QueryObserver(queryClient, { queryKey: sessionQueryKey, enabled: false });
    const stop = observer.subscribe((result) => seen.push(result.data));

    clearSession(queryClient);

    // A guard watching the session (another tab's sign-out) sees it end at once.
    expect(seen.at(-1)).toBeNull();
    expect(queryClient.getQueryData(['profile'])).toBeUndefined();
    stop();
  });
});
