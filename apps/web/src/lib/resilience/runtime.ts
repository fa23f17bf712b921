import type { ApiError } from '../api-error';
import { ClientRateLimiter, rateLimitCategoryOf } from './client-rate-limiter';
import { diagnostics } from './diagnostics';
import { GlobalBlock } from './global-block';
import { toastNotifier } from './notifier';
import { awaitProviderSlot } from './provider-throttle';
import { RequestDedup } from './request-dedup';
import { tabLeader } from './tab-leader';

/** The tab's one global block, limiter and de-duplicator. */
export const globalBlock = new GlobalBlock({
  notifier: toastNotifier,
  beforeRecovery: () => tabLeader.delayIfFollower(),
});
export const rateLimiter = new ClientRateLimiter(globalBlock);
export const requests = new RequestDedup();

let enabled = false;

/**
 * The limiter, the provider throttle and the global block act once the app has started them
 * (`startResilience`); before that — and in component tests — calls go straight out.
 */
export const setResilienceEnabled = (on: boolean): void => {
  enabled = on;
  if (!on) {
    globalBlock.reset();
    rateLimiter.reset();
    requests.stop();
  }
};

export const resilienceEnabled = (): boolean => enabled;

type GuardedCall = { method: string; path: string; provider?: string | undefined };

/** Waits for the limiter (and the provider's throttle) before a call; throws if it may not go. */
export const beforeCall = async ({ method, path, provider }: GuardedCall): Promise<void> => {
  if (!enabled) return;
  await rateLimiter.acquire(rateLimitCategoryOf(method, path));
  if (provider) await awaitProviderSlot(provider);
};

/**
 * How long a call would wait for the limiter now (0 when it may go). A person's action checks
 * first, so it can say when it may go again instead of waiting in silence.
 */
export const waitBeforeCall = ({ method, path }: GuardedCall): number =>
  enabled ? rateLimiter.waitMs(rateLimitCategoryOf(method, path)) : 0;

/** Records the answer in the diagnostics buffer. */
export const afterCall = ({ method, path }: GuardedCall, status: number, startedAt: number) => {
  diagnostics.record('request', `${method} ${path} → ${status} (${Date.now() - startedAt} ms)`);
};

/** A 429 starts (or lengthens) the global block; a failed write may still have changed data. */
export const onCallFailed = ({ method, path }: GuardedCall, error: ApiError): void => {
  diagnostics.record('error', `${method} ${path}: ${error.status} ${error.message}`);
  if (enabled && error.status === 429) globalBlock.trip(error.retryAfterSeconds, error.message);
  if (method !== 'GET') requests.invalidate();
};

/** Any write makes remembered reads stale. */
export const onWriteSucceeded = (): void => requests.invalidate();
