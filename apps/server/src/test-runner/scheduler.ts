import type { ProviderId } from '@chorus/shared/providers';
import { rateLimitOf } from '../ai/provider-errors.ts';

/**
 * Spreads a test run's model calls over the providers (issue 20): each provider a lane of its
 * own with a few calls at once, first come first served. A 429 pauses the whole lane until the
 * provider's `Retry-After` (or an exponential backoff with jitter when it gives none), then
 * the call is tried again at the head of the lane; the lane's concurrency halves on a 429 and
 * grows back by one per success (adaptive, as promptfoo #7262 asks).
 */
export type ProviderScheduler = {
  /** Runs a task in its provider's lane, retrying it on a rate limit; rejects when stopped. */
  run<T>(provider: ProviderId, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Calls waiting or running. */
  pending(): number;
};

export type SchedulerOptions = {
  /** Calls at once per provider, before any 429 (testRunLimits.concurrencyPerProvider). */
  concurrency: number;
  /** Tries of one call, the first included; default 5. */
  maxAttempts?: number;
  /** The first backoff when a 429 names no wait; default 1 s, doubled per attempt. */
  baseDelayMs?: number;
  /** The longest wait, whatever a provider asks; default 60 s. */
  maxDelayMs?: number;
  /** The run's stop: waiting calls are rejected at once, running ones get it as theirs. */
  signal: AbortSignal;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** For backoff jitter; default Math.random. */
  random?: () => number;
};

/** How long a provider's 429 asked to wait, in ms; null when it is not a 429 or named no wait. */
export const retryAfterMs = (error: unknown): number | null =>
  rateLimitOf(error)?.retryAfterMs ?? null;

/** The error is a provider's 429 (rate limited), with or without a wait named. */
export const isRateLimited = (error: unknown): boolean => rateLimitOf(error) !== null;

type Waiter = { start: () => void; stop: (reason: unknown) => void };

type Lane = {
  /** Calls allowed at once now: halved by a 429, grown back by successes. */
  limit: number;
  running: number;
  queue: Waiter[];
  /** When the pause after a 429 ends (ms since the epoch), or null when not paused. */
  pausedUntil: number | null;
  pauses: number;
};

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

export const createProviderScheduler = (opts: SchedulerOptions): ProviderScheduler => {
  const concurrency = Math.max(1, Math.floor(opts.concurrency));
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 5);
  const baseDelayMs = opts.baseDelayMs ?? 1_000;
  const maxDelayMs = opts.maxDelayMs ?? 60_000;
  const sleep = opts.sleep ?? defaultSleep;
  const random = opts.random ?? Math.random;
  const { signal } = opts;
  const lanes = new Map<ProviderId, Lane>();

  const laneOf = (provider: ProviderId) => {
    let lane = lanes.get(provider);
    if (!lane) {
      lane = { limit: concurrency, running: 0, queue: [], pausedUntil: null, pauses: 0 };
      lanes.set(provider, lane);
    }
    return lane;
  };

  const pump = (lane: Lane) => {
    while (lane.pausedUntil === null && lane.running < lane.limit && lane.queue.length > 0) {
      lane.running++;
      lane.queue.shift()!.start();
    }
  };

  signal.addEventListener(
    'abort',
    () => {
      for (const lane of lanes.values()) {
        for (const waiter of lane.queue.splice(0)) waiter.stop(signal.reason);
      }
    },
    { once: true },
  );

  /** A place in the lane: at its tail, or at its head for a call being tried again. */
  const acquire = (lane: Lane, head: boolean) =>
    new Promise<void>((start, stop) => {
      if (signal.aborted) return stop(signal.reason as Error);
      const waiter = { start, stop };
      if (head) lane.queue.unshift(waiter);
      else lane.queue.push(waiter);
      pump(lane);
    });

  const release = (lane: Lane) => {
    lane.running--;
    pump(lane);
  };

  const pause = (lane: Lane, ms: number) => {
    const until = Date.now() + ms;
    if (lane.pausedUntil !== null && until <= lane.pausedUntil) return;
    lane.pausedUntil = until;
    const pauseNo = ++lane.pauses;
    sleep(ms, signal).then(
      () => {
        if (lane.pauses !== pauseNo) return;
        lane.pausedUntil = null;
        pump(lane);
      },
      () => {
        // Stopped: the abort handler has rejected the waiting calls.
      },
    );
  };

  const backoffMs = (error: unknown, attempt: number) => {
    const asked = retryAfterMs(error);
    if (asked !== null) return Math.min(maxDelayMs, Math.max(0, asked));
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + random() * (ceiling / 2));
  };

  return {
    async run<T>(provider: ProviderId, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
      const lane = laneOf(provider);
      for (let attempt = 1; ; attempt++) {
        await acquire(lane, attempt > 1);
        let outcome: { ok: true; value: T } | { ok: false; error: unknown };
        try {
          outcome = { ok: true, value: await task(signal) };
        } catch (error) {
          outcome = { ok: false, error };
        }
        if (outcome.ok) {
          lane.limit = Math.min(concurrency, lane.limit + 1);
          release(lane);
          return outcome.value;
        }
        const { error } = outcome;
        if (signal.aborted || !isRateLimited(error) || attempt >= maxAttempts) {
          release(lane);
          throw error;
        }
        lane.limit = Math.max(1, Math.floor(lane.limit / 2));
        pause(lane, backoffMs(error, attempt));
        release(lane);
      }
    },
    pending: () => [...lanes.values()].reduce((n, l) => n + l.running + l.queue.length, 0),
  };
};
