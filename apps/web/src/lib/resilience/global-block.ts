import { clientRateLimit } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import { diagnostics } from './diagnostics';
import { isRateLimitError } from './rate-limit-error';
import { backoffMs, sleep } from './sleep';

export type GlobalBlockSnapshot = {
  /** Epoch ms when the block ends; null while nothing is blocked. */
  blockedUntil: number | null;
  /** What the server (or the limiter) said. */
  reason: string | null;
};

export type RateLimitNotifier = {
  paused: (onRetryNow: () => void) => void;
  restored: () => void;
  recoveryFailed: () => void;
};

type Options = {
  notifier: RateLimitNotifier;
  /** 0 ≤ x < 1, for the cooldown's jitter. */
  random?: () => number;
  /** Waits before automatic work in a tab that does not lead (spec §4). */
  beforeRecovery?: () => Promise<void>;
};

const idle: GlobalBlockSnapshot = { blockedUntil: null, reason: null };

/**
 * The browser's global block after a 429 (spec §4, §8, §9): every call waits while it lasts
 * (or fails when that would take over 10 s). When it ends a cooldown of 5 s doubling per recent
 * 429 up to 60 s (+ up to 1 s of jitter) passes, then up to 3 recovery attempts re-run what
 * failed, each after a backoff of 1 s doubling to 10 s.
 */
export class GlobalBlock {
  private snapshot: GlobalBlockSnapshot = idle;
  private readonly listeners = new Set<() => void>();
  private errorCount = 0;
  private lastErrorAt = Number.NEGATIVE_INFINITY;
  private endTimer: ReturnType<typeof setTimeout> | undefined;
  private cooldownTimer: ReturnType<typeof setTimeout> | undefined;
  private recovering = false;
  private lastRecoveryAt = Number.NEGATIVE_INFINITY;
  private recoveryHandler: () => Promise<unknown> = () => Promise.resolve();
  private readonly random: () => number;

  constructor(private readonly options: Options) {
    this.random = options.random ?? Math.random;
  }

  getSnapshot = (): GlobalBlockSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** What a recovery attempt runs, e.g. re-fetching the queries that failed. */
  setRecoveryHandler(handler: () => Promise<unknown>): void {
    this.recoveryHandler = handler;
  }

  /** 429s seen within the last 5 minutes (the count resets after 5 quiet minutes). */
  recentErrors(now = Date.now()): number {
    return now - this.lastErrorAt >= clientRateLimit.errorCountResetMs ? 0 : this.errorCount;
  }

  remainingMs(now = Date.now()): number {
    const until = this.snapshot.blockedUntil;
    return until === null ? 0 : Math.max(0, until - now);
  }

  /** Block length for a 429: Retry-After when given, else 30 s; never over 5 min. */
  static blockMs(retryAfterSeconds: number | undefined): number {
    const asked =
      retryAfterSeconds === undefined
        ? clientRateLimit.globalBlockDefaultMs
        : retryAfterSeconds * 1000;
    return Math.min(Math.max(asked, 0), clientRateLimit.globalBlockMaxMs);
  }

  /** Cooldown after the `errorCount`-th recent 429: 5 s doubling to 60 s, plus < 1 s jitter. */
  cooldownMs(errorCount: number): number {
    const base = backoffMs(
      Math.max(0, errorCount - 1),
      clientRateLimit.cooldownBaseMs,
      clientRateLimit.cooldownMaxMs,
    );
    return base + Math.floor(this.random() * clientRateLimit.jitterMaxMs);
  }

  /** Starts (or lengthens) the block after a 429. */
  trip(retryAfterSeconds: number | undefined, reason?: string): void {
    const now = Date.now();
    this.errorCount = this.recentErrors(now) + 1;
    this.lastErrorAt = now;
    const until = now + GlobalBlock.blockMs(retryAfterSeconds);
    const wasBlocked = this.snapshot.blockedUntil !== null;
    diagnostics.record(
      'rate-limit',
      `429 (${this.errorCount} in 5 min): blocked ${Math.round((until - now) / 1000)} s${reason ? ` — ${reason}` : ''}`,
    );
    if (wasBlocked && until <= (this.snapshot.blockedUntil ?? 0)) return;
    clearTimeout(this.endTimer);
    clearTimeout(this.cooldownTimer);
    this.set({ blockedUntil: until, reason: reason ?? messages.rateLimit.paused });
    this.endTimer = setTimeout(() => this.end(false), until - now);
    if (!wasBlocked) this.options.notifier.paused(() => this.retryNow());
  }

  /** 'Retry Now': ends the block at once and tries to recover. */
  retryNow(): void {
    if (this.snapshot.blockedUntil === null && this.recovering) return;
    this.end(true);
  }

  private end(now: boolean): void {
    clearTimeout(this.endTimer);
    clearTimeout(this.cooldownTimer);
    this.endTimer = undefined;
    if (this.snapshot.blockedUntil !== null) this.set(idle);
    diagnostics.record('rate-limit', now ? 'block ended by Retry Now' : 'block ended');
    if (now) {
      void this.recover();
      return;
    }
    const cooldown = this.cooldownMs(Math.max(1, this.recentErrors()));
    this.cooldownTimer = setTimeout(() => void this.recover(), cooldown);
  }

  /**
   * Up to 3 attempts, each after a backoff of 1 s doubling to 10 s. A new recovery waits at
   * least 5 s after the last one began. Returns whether it recovered.
   */
  async recover(): Promise<boolean> {
    const now = Date.now();
    const { recovery } = clientRateLimit;
    if (this.recovering || now - this.lastRecoveryAt < recovery.cooldownMs) return false;
    this.recovering = true;
    this.lastRecoveryAt = now;
    try {
      await this.options.beforeRecovery?.();
      for (let attempt = 0; attempt < recovery.maxAttempts; attempt += 1) {
        await sleep(backoffMs(attempt, recovery.backoffBaseMs, recovery.backoffMaxMs));
        if (this.snapshot.blockedUntil !== null) return false;
        try {
          await this.recoveryHandler();
          diagnostics.record('rate-limit', `recovered on attempt ${attempt + 1}`);
          this.options.notifier.restored();
          return true;
        } catch (error) {
          diagnostics.record('rate-limit', `recovery attempt ${attempt + 1} failed`);
          // A new 429 started a new block; its own recovery follows it.
          if (isRateLimitError(error) || this.snapshot.blockedUntil !== null) return false;
        }
      }
      this.options.notifier.recoveryFailed();
      return false;
    } finally {
      this.recovering = false;
    }
  }

  /** Forgets everything (tests, sign-out). */
  reset(): void {
    clearTimeout(this.endTimer);
    clearTimeout(this.cooldownTimer);
    this.errorCount = 0;
    this.lastErrorAt = Number.NEGATIVE_INFINITY;
    this.lastRecoveryAt = Number.NEGATIVE_INFINITY;
    this.recovering = false;
    this.set(idle);
  }

  private set(next: GlobalBlockSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}
