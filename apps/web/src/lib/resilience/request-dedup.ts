import { requestDedup } from '@chorus/shared/limits';

type Recent = { value: unknown; expiresAt: number };

/** Spec §9: how long a read's answer may be reused, by what it reads. */
export const dedupTtlMs = (key: string): number => {
  const text = key.toLowerCase();
  if (text.includes('auth') || text.includes('session')) return requestDedup.authTtlMs;
  if (text.includes('profile')) return requestDedup.profileTtlMs;
  if (text.includes('usage')) return requestDedup.usageTtlMs;
  return requestDedup.defaultTtlMs;
};

const abortable = <T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
};

/**
 * Identical reads share one request while it is in flight, and (with a TTL) reuse its answer
 * for a while after. Any write makes every remembered answer stale. Expired answers are
 * dropped every 5 minutes.
 */
export class RequestDedup {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly recent = new Map<string, Recent>();
  private generation = 0;
  private cleanupTimer: ReturnType<typeof setInterval> | undefined;

  /**
   * Runs `load` unless an identical read is in flight or was answered within `ttlMs`. Each
   * caller's `signal` only cancels that caller's wait, never the shared request.
   */
  run<T>(key: string, ttlMs: number, load: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.startCleanup();
    const hit = this.recent.get(key);
    if (hit && hit.expiresAt > Date.now())
      return abortable(Promise.resolve(hit.value as T), signal);
    const pending = this.inFlight.get(key) as Promise<T> | undefined;
    if (pending) return abortable(pending, signal);
    const generation = this.generation;
    const request = load().then((value) => {
      if (ttlMs > 0 && generation === this.generation) {
        this.recent.set(key, { value, expiresAt: Date.now() + ttlMs });
      }
      return value;
    });
    this.inFlight.set(key, request);
    const forget = () => {
      if (this.inFlight.get(key) === request) this.inFlight.delete(key);
    };
    request.then(forget, forget);
    return abortable(request, signal);
  }

  /** After a write: nothing remembered may be reused, nor what is in flight remembered. */
  invalidate(): void {
    this.generation += 1;
    this.recent.clear();
  }

  /** Drops expired answers; returns how many were dropped. */
  cleanup(now = Date.now()): number {
    let dropped = 0;
    for (const [key, entry] of this.recent) {
      if (entry.expiresAt <= now) {
        this.recent.delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }

  size(): { inFlight: number; recent: number } {
    return { inFlight: this.inFlight.size, recent: this.recent.size };
  }

  stop(): void {
    clearInterval(this.cleanupTimer);
    this.cleanupTimer = undefined;
    this.inFlight.clear();
    this.recent.clear();
  }

  private startCleanup(): void {
    if (this.cleanupTimer !== undefined) return;
    this.cleanupTimer = setInterval(() => this.cleanup(), requestDedup.cleanupMs);
  }
}
