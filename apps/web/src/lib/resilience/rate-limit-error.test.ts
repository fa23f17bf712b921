import { describe, expect, it } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { ApiError } from '../api-error';
import { isRateLimitError, RateLimitedError } from './rate-limit-error';

describe('rate-limit errors', () => {
  it('are recognised by a 429 or by the spec’s words, in any case', () => {
    expect(isRateLimitError(new ApiError(429, 'Slow down'))).toBe(true);
    for (const text of [
      'Data rate limited. Retry after 8 seconds.',
      'HTTP 429',
      'Too Many Requests',
      'over_request_rate_limit',
      'Request rate limit reached',
    ]) {
      expect(isRateLimitError(new Error(text))).toBe(true);
    }
    expect(isRateLimitError({ code: 'over_request_rate_limit' })).toBe(true);
    expect(isRateLimitError(new ApiError(400, 'x', { code: 'rate_limit:exceeded' }))).toBe(false);
    expect(isRateLimitError(new ApiError(503, 'Service unavailable'))).toBe(false);
    expect(isRateLimitError(null)).toBe(false);
  });

  it('carries the spec’s wait message and counts as a 429', () => {
    const error = new RateLimitedError(29_100);
    expect(error.message).toBe(messages.rateLimit.waitSeconds(30));
    expect(error.status).toBe(429);
    expect(isRateLimitError(error)).toBe(true);
  });
});
