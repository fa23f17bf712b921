import type { QueryClient } from '@tanstack/react-query';
import { authRefresh } from '@chorus/shared/limits';
import type { ApiError } from '../api-error';
import { authClient, type AuthResult, type AuthSession } from '../auth-client';
import { clearSession, recheckSession, sessionQueryKey, writeSessionSnapshot } from '../session';
import { diagnostics } from './diagnostics';
import {
  isRetryableRefreshError,
  markRefreshed,
  RefreshBreaker,
  refreshAllowed,
  withRefreshLock,
} from './refresh-guards';
import type { TabLeader } from './tab-leader';

/** Spec §4's auth events (MFA is not offered, so there is no MFA challenge event). */
export type AuthEvent =
  | 'INITIAL_SESSION'
  | 'SIGNED_IN'
  | 'SIGNED_OUT'
  | 'TOKEN_REFRESHED'
  | 'USER_UPDATED'
  | 'PASSWORD_RECOVERY';

export type AuthState = 'loading' | 'signed-in' | 'signed-out';

type AuthListener = (event: AuthEvent, session: AuthSession | null) => void;

type CrossTabMessage = { type: 'signed-out' | 'signed-in'; from: string };

type ChannelLike = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  onmessage: ((event: MessageEvent<CrossTabMessage>) => void) | null;
};

type Options = {
  queryClient: QueryClient;
  leader: TabLeader;
  refreshCall?: () => Promise<AuthResult<AuthSession | null>>;
  openChannel?: () => ChannelLike | null;
  /** Where the page is, to notice a password-recovery link. */
  location?: () => { pathname: string; search: string };
};

const expiresAtMs = (session: AuthSession): number => new Date(session.session.expiresAt).getTime();

const sameUser = (a: AuthSession, b: AuthSession) =>
  a.user.id === b.user.id &&
  a.user.email === b.user.email &&
  a.user.name === b.user.name &&
  (a.user.image ?? null) === (b.user.image ?? null);

/** How far apart two sessions are, as an auth event (null when nothing changed). */
export const authEventBetween = (
  previous: AuthSession | null | undefined,
  next: AuthSession | null,
): AuthEvent | null => {
  if (previous === undefined) return 'INITIAL_SESSION';
  if (!previous && !next) return null;
  if (!previous) return 'SIGNED_IN';
  if (!next) return 'SIGNED_OUT';
  if (previous.user.id !== next.user.id) return 'SIGNED_IN';
  if (!sameUser(previous, next)) return 'USER_UPDATED';
  if (previous.session.expiresAt !== next.session.expiresAt) return 'TOKEN_REFRESHED';
  return null;
};

/** When to refresh a session: 5 min before it ends, but never sooner than 1 min from now. */
export const refreshDelayMs = (session: AuthSession, now = Date.now()): number =>
  Math.max(
    expiresAtMs(session) - now - authRefresh.scheduleBeforeExpiryMs,
    authRefresh.minScheduleDelayMs,
  );

/** Whole 30 s ticks left before the session ends. */
export const ticksLeft = (session: AuthSession, now = Date.now()): number =>
  Math.floor((expiresAtMs(session) - now) / authRefresh.tickMs);

/**
 * The session's life in this tab (spec §4, §8, §9), on top of the TanStack session query:
 * announces auth events, keeps the session alive (the leader tab refreshes it when 3 ticks
 * of 30 s or fewer remain, and 5 min before expiry), guards refreshes with a 5 min minimum
 * interval, a 15 s cross-tab lock, a 500 ms throttle and a circuit breaker, clears the
 * session on a refresh failure that cannot be retried, and signs every tab out together.
 */
export class SessionManager {
  readonly breaker = new RefreshBreaker();
  private previous: AuthSession | null | undefined = undefined;
  private readonly listeners = new Set<AuthListener>();
  private tick: ReturnType<typeof setInterval> | undefined;
  private scheduled: ReturnType<typeof setTimeout> | undefined;
  private unsubscribeCache: (() => void) | undefined;
  private channel: ChannelLike | null = null;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private pending: Promise<AuthSession | null> | undefined;

  constructor(private readonly options: Options) {}

  private get queryClient() {
    return this.options.queryClient;
  }

  current(): AuthSession | null | undefined {
    return this.queryClient.getQueryData<AuthSession | null>(sessionQueryKey);
  }

  state(): AuthState {
    const session = this.current();
    if (session === undefined) return 'loading';
    return session ? 'signed-in' : 'signed-out';
  }

  onAuthStateChange(listener: AuthListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    const cache = this.queryClient.getQueryCache();
    this.unsubscribeCache = cache.subscribe((event) => {
      if (event.query.queryKey[0] !== sessionQueryKey[0]) return;
      if (event.query.state.status !== 'success') return;
      this.observe(event.query.state.data as AuthSession | null);
    });
    const known = this.queryClient.getQueryState(sessionQueryKey);
    if (known?.status === 'success') this.observe(this.current() ?? null);
    this.tick = setInterval(() => void this.onTick(), authRefresh.tickMs);
    this.channel = this.openChannel();
    if (this.channel) this.channel.onmessage = (event) => void this.receive(event.data);
    const where = this.options.location?.() ?? window.location;
    if (where.pathname === '/reset-password' && new URLSearchParams(where.search).has('token')) {
      this.emit('PASSWORD_RECOVERY', null);
    }
  }

  stop(): void {
    this.unsubscribeCache?.();
    clearInterval(this.tick);
    clearTimeout(this.scheduled);
    this.channel?.close();
    this.channel = null;
  }

  /**
   * Refreshes the session now if the guards allow it. Resolves the session afterwards (the
   * current one when the refresh was skipped); throws when the breaker is open.
   */
  refresh(): Promise<AuthSession | null> {
    const now = Date.now();
    // Auth throttle: calls within 500 ms share the same refresh.
    if (this.pending && now - this.lastAttemptAt < authRefresh.throttleMs) return this.pending;
    this.breaker.assertClosed(now);
    this.lastAttemptAt = now;
    this.pending = this.runRefresh();
    return this.pending;
  }

  private async runRefresh(): Promise<AuthSession | null> {
    const current = this.current() ?? null;
    if (!refreshAllowed()) return current;
    const outcome = await withRefreshLock(this.options.leader.id, async () => {
      const call = this.options.refreshCall ?? (() => authClient.refreshSession());
      return call();
    });
    if (!outcome.ran) return current;
    const { data, error } = outcome.value;
    if (error) return this.refreshFailed(error, current);
    markRefreshed();
    this.breaker.success();
    const session = data?.session && data.user ? data : null;
    diagnostics.record('auth', session ? 'session refreshed' : 'refresh found no session');
    writeSessionSnapshot(session);
    this.queryClient.setQueryData(sessionQueryKey, session);
    return session;
  }

  private refreshFailed(error: ApiError, current: AuthSession | null): AuthSession | null {
    this.breaker.failure(error);
    diagnostics.record('auth', `refresh failed: ${error.status} ${error.message}`);
    if (isRetryableRefreshError(error)) return current;
    clearSession(this.queryClient);
    return null;
  }

  private async onTick(): Promise<void> {
    const session = this.current();
    if (!session || !this.options.leader.isLeader()) return;
    if (ticksLeft(session) > authRefresh.refreshAtTicksLeft) return;
    await this.tryRefresh('tick');
  }

  private async tryRefresh(why: string): Promise<void> {
    try {
      await this.refresh();
    } catch (error) {
      diagnostics.record('auth', `${why}: ${(error as Error).message}`);
    }
  }

  private schedule(session: AuthSession | null): void {
    clearTimeout(this.scheduled);
    if (!session) return;
    this.scheduled = setTimeout(() => {
      if (this.options.leader.isLeader()) void this.tryRefresh('scheduled refresh');
    }, refreshDelayMs(session));
  }

  private observe(next: AuthSession | null): void {
    const event = authEventBetween(this.previous, next);
    this.previous = next;
    if (!event) return;
    if (event !== 'USER_UPDATED') this.schedule(next);
    this.emit(event, next);
    // Another tab that is already signed out (or in) ignores the echo, so this settles.
    if (event === 'SIGNED_OUT') this.post('signed-out');
    if (event === 'SIGNED_IN') this.post('signed-in');
  }

  private emit(event: AuthEvent, session: AuthSession | null): void {
    diagnostics.record('auth', event);
    for (const listener of this.listeners) listener(event, session);
  }

  private async receive(message: CrossTabMessage): Promise<void> {
    if (!message || message.from === this.options.leader.id) return;
    await this.options.leader.delayIfFollower();
    diagnostics.record('auth', `another tab ${message.type}`);
    if (message.type === 'signed-out') {
      if (this.current()) clearSession(this.queryClient);
      return;
    }
    await recheckSession(this.queryClient);
  }

  private post(type: CrossTabMessage['type']): void {
    this.channel?.postMessage({ type, from: this.options.leader.id } satisfies CrossTabMessage);
  }

  private openChannel(): ChannelLike | null {
    if (this.options.openChannel) return this.options.openChannel();
    return typeof BroadcastChannel === 'undefined'
      ? null
      : (new BroadcastChannel('chorus-auth') as ChannelLike);
  }
}
