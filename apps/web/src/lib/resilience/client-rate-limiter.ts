import {
  clientRateLimit,
  rateLimitWindows,
  type RateLimitCategory,
  type RateLimitWindow,
} from '@chorus/shared/limits';
import { diagnostics } from './diagnostics';
import type { GlobalBlock } from './global-block';
import { RateLimitedError } from './rate-limit-error';
import { sleep } from './sleep';

type WindowState = { startedAt: number; count: number; blockedUntil: number };

/** Which of the spec's four windows a call counts against. */
export const rateLimitCategoryOf = (method: string, path: string): RateLimitCategory => {
  const pathname = path.split('?')[0] ?? path;
  if (pathname.endsWith('/auth/v1/refresh-session')) return 'token_refresh';
  // Reading the session is ordinary data work; signing in, up, out and resets are `auth`.
  if (pathname.includes('/auth/v1/') && method !== 'GET') return 'auth';
  if (method === 'POST' && /\/rest\/v1\/conversations\/?$/.test(pathname)) {
    return 'conversation_create';
  }
  return 'data';
};

/**
 * Spec §9's windows applied to this tab's own calls, plus the global block after a 429. A
 * call that would have to wait 10 s or less waits; a longer wait throws 'Rate limited. Please
 * wait {n} seconds before retrying.'
 */
export class ClientRateLimiter {
  private readonly windows = new Map<RateLimitCategory, WindowState>();

  constructor(
    private readonly block: GlobalBlock,
    private readonly config: Record<RateLimitCategory, RateLimitWindow> = rateLimitWindows,
  ) {}

  /** How long a call in `category` must wait now; 0 means it was counted and may go. */
  reserve(category: RateLimitCategory, now = Date.now()): number {
    const blocked = this.block.remainingMs(now);
    if (blocked > 0) return blocked;
    const window = this.config[category];
    let state = this.windows.get(category);
    if (state && state.blockedUntil > now) return state.blockedUntil - now;
    const windowMs = window.windowSeconds * 1000;
    if (!state || state.blockedUntil !== 0 || now - state.startedAt >= windowMs) {
      state = { startedAt: now, count: 0, blockedUntil: 0 };
      this.windows.set(category, state);
    }
    if (state.count < window.points) {
      state.count += 1;
      return 0;
    }
    state.blockedUntil = now + window.blockSeconds * 1000;
    diagnostics.record(
      'rate-limit',
      `client ${category} window full (${window.points}/${window.windowSeconds} s): blocked ${window.blockSeconds} s`,
    );
    return window.blockSeconds * 1000;
  }

  /**
   * How long a call in `category` would wait now, without counting it. A full window starts its
   * block, as the call would have, so asking again counts down.
   */
  waitMs(category: RateLimitCategory, now = Date.now()): number {
    const blocked = this.block.remainingMs(now);
    if (blocked > 0) return blocked;
    const window = this.config[category];
    const state = this.windows.get(category);
    if (!state) return 0;
    if (state.blockedUntil > now) return state.blockedUntil - now;
    if (state.blockedUntil !== 0 || now - state.startedAt >= window.windowSeconds * 1000) return 0;
    if (state.count < window.points) return 0;
    state.blockedUntil = now + window.blockSeconds * 1000;
    return window.blockSeconds * 1000;
  }

  /** Resolves when a call in `category` may go; throws when that is over 10 s away. */
  async acquire(category: RateLimitCategory): Promise<void> {
    for (;;) {
      const wait = this.reserve(category);
      if (wait === 0) return;
      if (wait > clientRateLimit.maxWaitMs) throw new RateLimitedError(wait);
      await sleep(wait);
    }
  }

  reset(): void {
    this.windows.clear();
  }
}
