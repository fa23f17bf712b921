import { messages } from '@chorus/shared/messages';
import { ApiError, isApiError } from '../api-error';

/** Thrown by the browser's own limiter when a call would have to wait longer than it may. */
export class RateLimitedError extends ApiError {
  constructor(waitMs: number) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    super(429, messages.rateLimit.waitSeconds(seconds), {
      code: 'rate_limit:client',
      retryAfterSeconds: seconds,
    });
    this.name = 'RateLimitedError';
  }
}

const textOf = (error: unknown): string => {
  if (typeof error === 'string') return error;
  if (error instanceof Error) {
    const code = isApiError(error) ? (error.code ?? '') : '';
    return `${error.message} ${code}`;
  }
  if (error && typeof error === 'object') {
    const record = error as Record<string, unknown>;
    return [record.message, record.error, record.code]
      .filter((part) => typeof part === 'string')
      .join(' ');
  }
  return '';
};

/** Spec §8: a 429, or an error whose text names a rate limit in the spec's words. */
export const isRateLimitError = (error: unknown): boolean => {
  if (isApiError(error) && error.status === 429) return true;
  const text = textOf(error).toLowerCase();
  if (!text) return false;
  return messages.rateLimit.words.some((word) => text.includes(word));
};
