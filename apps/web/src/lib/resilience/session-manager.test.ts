import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { createBroadcastBus } from '@/test/broadcast-bus';
import { ApiError } from '../api-error';
import type { AuthResult, AuthSession } from '../auth-client';
import { sessionQueryKey } from '../session';
import {
  authEventBetween,
  refreshDelayMs,
  SessionManager,
  ticksLeft,
  type AuthEvent,
} from './session-manager';
import type { TabLeader } from './tab-leader';

const minute = 60_000;

const sessionUntil = (expiresAt: number, name = 'Ada', id = 'user-1'): AuthSession => ({
  session: { id: 'session-1', expiresAt: new Date(expiresAt).toISOString() },
  user: { id, email: 'ada@example.com', name },
});

const fakeLeader = (id: string, leading = true) =>
  ({
    id,
    isLeader: () => leading,
    delayIfFollower: () => Promise.resolve(),
  }) as unknown as TabLeader;

type Setup = {
  session?: AuthSession | null;
  leading?: boolean;
  refresh?: () => Promise<AuthResult<AuthSession | null>>;
  bus?: ReturnType<typeof createBroadcastBus>;
  id?: string;
  location?: { pathname: string; search: string };
};

const setup = ({ session, leading = true, refresh, bus, id = 'tab-a', location }: Setup = {}) => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (session !== undefined) queryClient.setQueryData(sessionQueryKey, session);
  const refreshCall = vi.fn(
    refresh ??
      (async () => ({ data: sessionUntil(Date.now() + 7 * 24 * 60 * minute), error: null })),
  );
  const manager = new SessionManager({
    queryClient,
    leader: fakeLeader(id, leading),
    refreshCall,
    openChannel: bus ?? (() => null),
    location: () => location ?? { pathname: '/chat', search: '' },
  });
  const events: AuthEvent[] = [];
  manager.onAuthStateChange((event) => events.push(event));
  manager.start();
  return { queryClient, manager, refreshCall, events };
};

describe('the session manager', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
  });
  afterEach(() => vi.useRealTimers());

  it('names each change of session as the spec’s auth events', () => {
    const a = sessionUntil(1000);
    expect(authEventBetween(undefined, null)).toBe('INITIAL_SESSION');
    expect(authEventBetween(null, a)).toBe('SIGNED_IN');
    expect(authEventBetween(a, sessionUntil(2000))).toBe('TOKEN_REFRESHED');
    expect(authEventBetween(a, sessionUntil(1000, 'Ada L.'))).toBe('USER_UPDATED');
    expect(authEventBetween(a, null)).toBe('SIGNED_OUT');
    expect(authEventBetween(a, sessionUntil(1000, 'Bob', 'user-2'))).toBe('SIGNED_IN');
    expect(authEventBetween(a, a)).toBeNull();
  });

  it('goes from loading to signed in and out, announcing each event', async () => {
    const { queryClient, manager, events } = setup();
    expect(manager.state()).toBe('loading');
    queryClient.setQueryData(sessionQueryKey, sessionUntil(Date.now() + 60 * minute));
    await vi.advanceTimersByTimeAsync(0);
    expect(manager.state()).toBe('signed-in');
    queryClient.setQueryData(sessionQueryKey, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(manager.state()).toBe('signed-out');
    queryClient.setQueryData(sessionQueryKey, sessionUntil(Date.now() + 60 * minute));
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_OUT', 'SIGNED_IN']);
    manager.stop();
  });

  it('announces a password recovery when opened from a reset link', () => {
    const { events, manager } = setup({
      location: { pathname: '/reset-password', search: '?token=abc' },
    });
    expect(events).toEqual(['PASSWORD_RECOVERY']);
    manager.stop();
  });

  it('counts 30 s ticks and schedules a refresh 5 min before expiry, at least 1 min ahead', () => {
    const now = Date.now();
    expect(ticksLeft(sessionUntil(now + 120_000), now)).toBe(4);
    expect(ticksLeft(sessionUntil(now + 119_999), now)).toBe(3);
    expect(refreshDelayMs(sessionUntil(now + 60 * minute), now)).toBe(55 * minute);
    expect(refreshDelayMs(sessionUntil(now + 5 * minute), now)).toBe(minute);
    expect(refreshDelayMs(sessionUntil(now + 30_000), now)).toBe(minute);
  });

  it('refreshes on the tick once 3 ticks or fewer remain', async () => {
    // 150 s left: 4 ticks at the 30 s tick, 3 at the 60 s tick.
    const { refreshCall, manager, events } = setup({
      session: sessionUntil(Date.now() + 150_000),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refreshCall).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refreshCall).toHaveBeenCalledOnce();
    expect(events).toEqual(['INITIAL_SESSION', 'TOKEN_REFRESHED']);
    manager.stop();
  });

  it('refreshes 5 minutes before expiry', async () => {
    const { refreshCall, manager } = setup({ session: sessionUntil(Date.now() + 60 * minute) });
    await vi.advanceTimersByTimeAsync(55 * minute - 1);
    expect(refreshCall).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(refreshCall).toHaveBeenCalledOnce();
    manager.stop();
  });

  it('leaves refreshing to the leader tab', async () => {
    const { refreshCall, manager } = setup({
      session: sessionUntil(Date.now() + 150_000),
      leading: false,
    });
    await vi.advanceTimersByTimeAsync(150_000);
    expect(refreshCall).not.toHaveBeenCalled();
    manager.stop();
  });

  it('refreshes at most once per 5 minutes', async () => {
    const { refreshCall, manager } = setup({ session: sessionUntil(Date.now() + 60 * minute) });
    await manager.refresh();
    await vi.advanceTimersByTimeAsync(1000);
    await manager.refresh();
    expect(refreshCall).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(5 * minute - 1000);
    await manager.refresh();
    expect(refreshCall).toHaveBeenCalledTimes(2);
    manager.stop();
  });

  it('shares one refresh between calls within 500 ms', async () => {
    const { refreshCall, manager } = setup({
      session: sessionUntil(Date.now() + 60 * minute),
      refresh: async () => ({ data: null, error: new ApiError(503, 'down') }),
    });
    const first = manager.refresh();
    await vi.advanceTimersByTimeAsync(499);
    expect(manager.refresh()).toBe(first);
    await vi.advanceTimersByTimeAsync(1);
    void manager.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshCall).toHaveBeenCalledTimes(2);
    manager.stop();
  });

  it('opens the breaker after 3 failed refreshes and keeps the session on a retryable one', async () => {
    const session = sessionUntil(Date.now() + 60 * minute);
    const { refreshCall, manager, queryClient } = setup({
      session,
      refresh: async () => ({ data: null, error: new ApiError(503, 'down') }),
    });
    for (let i = 0; i < 3; i += 1) {
      await manager.refresh();
      await vi.advanceTimersByTimeAsync(500);
    }
    expect(queryClient.getQueryData(sessionQueryKey)).toEqual(session);
    expect(() => manager.refresh()).toThrow(messages.session.breakerOpen(300));
    await vi.advanceTimersByTimeAsync(5 * minute);
    await manager.refresh();
    expect(refreshCall).toHaveBeenCalledTimes(4);
    manager.stop();
  });

  it('opens the breaker at once on a rate limit', async () => {
    const { manager } = setup({
      session: sessionUntil(Date.now() + 60 * minute),
      refresh: async () => ({
        data: null,
        error: new ApiError(429, 'Token refresh rate limited. Retry after 60 seconds.'),
      }),
    });
    await manager.refresh();
    await vi.advanceTimersByTimeAsync(500);
    expect(() => manager.refresh()).toThrow(messages.session.breakerOpen(300));
    manager.stop();
  });

  it('clears the session when a refresh fails for good', async () => {
    const { manager, queryClient, events } = setup({
      session: sessionUntil(Date.now() + 60 * minute),
      refresh: async () => ({ data: null, error: new ApiError(401, 'Unauthorized') }),
    });
    expect(await manager.refresh()).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
    expect(events).toEqual(['INITIAL_SESSION', 'SIGNED_OUT']);
    manager.stop();
  });

  it('signs every tab out when one signs out', async () => {
    const bus = createBroadcastBus();
    const session = sessionUntil(Date.now() + 60 * minute);
    const a = setup({ session, bus, id: 'tab-a' });
    const b = setup({ session, bus, id: 'tab-b' });
    a.queryClient.setQueryData(sessionQueryKey, null);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.queryClient.getQueryData(sessionQueryKey)).toBeNull();
    expect(b.events).toEqual(['INITIAL_SESSION', 'SIGNED_OUT']);
    a.manager.stop();
    b.manager.stop();
  });
});
