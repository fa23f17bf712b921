import { authRefresh } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { isApiError } from '../api-error';
import { storage } from '../storage';
import { isRateLimitError } from './rate-limit-error';

/**
 * Spec §4: the refresh circuit breaker opens after 3 failures or any rate-limit error, stays
 * open 5 minutes, then closes again with its count reset.
 */
export class RefreshBreaker {
  private failures = 0;
  private openUntil = 0;

  isOpen(now = Date.now()): boolean {
    if (this.openUntil === 0) return false;
    if (now < this.openUntil) return true;
    this.openUntil = 0;
    this.failures = 0;
    return false;
  }

  /** Throws 'Auth refresh circuit breaker is open. Try again in {n} seconds.' while open. */
  assertClosed(now = Date.now()): void {
    if (!this.isOpen(now)) return;
    throw new Error(messages.session.breakerOpen(Math.ceil((this.openUntil - now) / 1000)));
  }

  success(): void {
    this.failures = 0;
    this.openUntil = 0;
  }

  failure(error: unknown, now = Date.now()): void {
    this.failures += 1;
    if (isRateLimitError(error) || this.failures >= authRefresh.breakerMaxFailures) {
      this.openUntil = now + authRefresh.breakerOpenMs;
    }
  }
}

/**
 * Spec §8: the auth library retries only 502, 503 and 504 (plus a lost connection, a time-out
 * and a rate limit, which say nothing about the session). Anything else ends the session.
 */
export const isRetryableRefreshError = (error: unknown): boolean => {
  if (isRateLimitError(error)) return true;
  if (!isApiError(error)) return true;
  if (error.status === 0 || error.status === 408) return true;
  return (authRefresh.retryableStatuses as readonly number[]).includes(error.status);
};

const lockName = 'chorus.auth-refresh-lock';
const refreshedAtKey = 'chorus.auth-refreshed-at';

/** When any tab last refreshed the session (epoch ms), shared through local storage. */
const lastRefreshAt = (): number => Number(storage.get(refreshedAtKey) ?? 0) || 0;
export const markRefreshed = (at = Date.now()): void => storage.set(refreshedAtKey, String(at));

/** At most one refresh per 5 minutes across all tabs. */
export const refreshAllowed = (now = Date.now()): boolean =>
  now - lastRefreshAt() >= authRefresh.minIntervalMs;

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Auth refresh lock expired')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      },
    );
  });

type Lease = { owner: string; until: number };

const readLease = (): Lease | null => {
  try {
    const lease = JSON.parse(storage.get(lockName) ?? 'null') as Lease | null;
    return lease && typeof lease.until === 'number' ? lease : null;
  } catch {
    return null;
  }
};

/**
 * Runs `work` while holding the cross-tab refresh lock for at most 15 s: the Web Locks API
 * where the browser has it, else a lease in local storage. Resolves `{ ran: false }` when
 * another tab holds the lock.
 */
export const withRefreshLock = async <T>(
  owner: string,
  work: () => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> => {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) {
    return locks.request(lockName, { ifAvailable: true }, async (lock) => {
      if (!lock) return { ran: false as const };
      return { ran: true as const, value: await withTimeout(work(), authRefresh.lockMs) };
    });
  }
  const now = Date.now();
  const lease = readLease();
  if (lease && lease.owner !== owner && lease.until > now) return { ran: false };
  storage.set(lockName, JSON.stringify({ owner, until: now + authRefresh.lockMs }));
  try {
    return { ran: true, value: await withTimeout(work(), authRefresh.lockMs) };
  } finally {
    if (readLease()?.owner === owner) storage.remove(lockName);
  }
};
