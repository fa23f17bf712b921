import { QueryClient } from '@tanstack/react-query';
import { clientRateLimit, queryRetry } from '@chorus/shared/limits';
import { isApiError } from './api-error';
import { isRateLimitError } from './resilience/rate-limit-error';
import { dedupTtlMs } from './resilience/request-dedup';

/**
 * Retries 3 times with backoff min(1 s × 2^n, 30 s). A 4xx fails the same way again, so it is
 * never retried — except 408 (time-out) and 429 (rate limit), which pass with time.
 */
export const shouldRetry = (failureCount: number, error: unknown): boolean => {
  if (failureCount >= queryRetry.attempts) return false;
  if (isRateLimitError(error)) return true;
  if (!isApiError(error)) return true;
  return error.status < 400 || error.status >= 500 || error.status === 408;
};

/** Spec §4: after a rate-limit error a read backs off 2 s; otherwise min(1 s × 2^n, 30 s). */
export const retryDelayMs = (attempt: number, error: unknown): number =>
  isRateLimitError(error) ? clientRateLimit.rateLimitedReadBackoffMs : queryRetry.delayMs(attempt);

/** Spec §9 de-duplication TTLs: a read repeated within its TTL is answered from the cache. */
export const staleTimeFor = (query: { queryKey: readonly unknown[] }): number =>
  dedupTtlMs(query.queryKey.map((part) => (typeof part === 'string' ? part : '')).join(' '));

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: retryDelayMs,
        staleTime: staleTimeFor,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
