import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { createQueryClient, retryDelayMs, shouldRetry, staleTimeFor } from './query-client';

describe('query retries', () => {
  it('retry 3 times, never on a 4xx except 408 and 429', () => {
    expect(shouldRetry(0, new Error('network'))).toBe(true);
    expect(shouldRetry(2, new ApiError(500, 'x'))).toBe(true);
    expect(shouldRetry(3, new ApiError(500, 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(408, 'x'))).toBe(true);
    expect(shouldRetry(0, new ApiError(429, 'x'))).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 413]) {
      expect(shouldRetry(0, new ApiError(status, 'x'))).toBe(false);
    }
  });

  it('wait min(1 s × 2^n, 30 s), and 2 s after a rate-limit error', () => {
    const plain = new Error('x');
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, plain))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(retryDelayMs(3, new ApiError(429, 'Too many requests'))).toBe(2000);
  });
});

describe('recent reads', () => {
  it('stay fresh 30 s for auth, 60 s for the profile, 30 s for usage and 10 s otherwise', () => {
    const client = createQueryClient();
    const staleTime = (queryKey: string[]) =>
      staleTimeFor(client.getQueryCache().build(client, { queryKey }));
    expect(staleTime(['session'])).toBe(30_000);
    expect(staleTime(['admin-status', 'u1'])).toBe(10_000);
    expect(staleTime(['profile', 'u1'])).toBe(60_000);
    expect(staleTime(['usage', 'today'])).toBe(30_000);
    expect(staleTime(['conversations'])).toBe(10_000);
    expect(client).toBeInstanceOf(QueryClient);
  });
});
