import { providerThrottle } from '@chorus/shared/limits';
import { diagnostics } from './diagnostics';
import { sleep } from './sleep';

type Throttle = { maxCalls: number; windowMs: number; blockMs: number };

/**
 * Counts calls per key within a sliding window; the call that makes more than `maxCalls`
 * within `windowMs` blocks the key for `blockMs` (spec §4: provider throttle).
 */
export class CallThrottle {
  private readonly calls = new Map<string, number[]>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(private readonly throttle: Throttle = providerThrottle) {}

  /** Ms until `key` may be called again; 0 when it is not throttled. */
  remainingMs(key: string, now = Date.now()): number {
    return Math.max(0, (this.blockedUntil.get(key) ?? 0) - now);
  }

  /** Counts a call to `key`; returns how long it must wait (0 = go now). */
  hit(key: string, now = Date.now()): number {
    const blocked = this.remainingMs(key, now);
    if (blocked > 0) return blocked;
    const recent = (this.calls.get(key) ?? []).filter((at) => now - at < this.throttle.windowMs);
    recent.push(now);
    this.calls.set(key, recent);
    if (recent.length <= this.throttle.maxCalls) return 0;
    this.calls.set(key, []);
    this.blockedUntil.set(key, now + this.throttle.blockMs);
    diagnostics.record('rate-limit', `${key} throttled for ${this.throttle.blockMs / 1000} s`);
    return this.throttle.blockMs;
  }

  reset(): void {
    this.calls.clear();
    this.blockedUntil.clear();
  }
}

/** One throttle for every provider the chat and proxy calls reach. */
export const providerCalls = new CallThrottle(providerThrottle);

/** Waits out a throttled provider (at most 5 s) before a call to it. */
export const awaitProviderSlot = async (provider: string): Promise<void> => {
  for (;;) {
    const wait = providerCalls.hit(provider);
    if (wait === 0) return;
    await sleep(wait);
  }
};
