import { APICallError } from 'ai';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { ProviderStalledError } from './stall-guard.ts';

/** Why a provider call failed: a code (which way out the chat offers) and what a person reads. */
export type ProviderFailure = { code: ErrorCode; message: string };

/** A failure whose words name only the provider. */
const failure = (
  code:
    | 'provider:stalled'
    | 'provider:auth'
    | 'provider:rate_limited'
    | 'provider:unknown_model'
    | 'provider:timeout'
    | 'provider:failed',
  provider: string,
): ProviderFailure => ({ code, message: messageFor(code, { provider }) });

/** Classifies a failed provider call; never a stack or the provider's raw body. */
export const classifyProviderError = (provider: ProviderId, error: unknown): ProviderFailure => {
  const name = providers[provider].name;
  if (causes(error).some((e) => e instanceof ProviderStalledError)) {
    return failure('provider:stalled', name);
  }
  const cause = findApiCallError(error);
  const status = cause?.statusCode;
  if (status === 401 || status === 403) {
    return failure('provider:auth', name);
  }
  if (status === 429) {
    return failure('provider:rate_limited', name);
  }
  if (status && status >= 500) {
    return {
      code: 'provider:unavailable',
      message: messageFor('provider:unavailable', { provider: name, status }),
    };
  }
  if (status === 404) {
    return failure('provider:unknown_model', name);
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return failure('provider:timeout', name);
  }
  return failure('provider:failed', name);
};

/** What a person should read when a provider call fails. */
export const describeProviderError = (provider: ProviderId, error: unknown): string =>
  classifyProviderError(provider, error).message;

/** The error and what it wraps (a retry's last error, a cause), a few levels deep. */
const causes = (error: unknown): unknown[] => {
  const chain: unknown[] = [];
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    chain.push(e);
    e = (e as { lastError?: unknown }).lastError ?? (e as { cause?: unknown }).cause;
  }
  return chain;
};

const findApiCallError = (error: unknown): APICallError | undefined =>
  causes(error).find((e): e is APICallError => APICallError.isInstance(e));

/**
 * A provider's 429 found in a failed call (or one of ours that carries it on): how long the
 * provider asked to wait (`retry-after-ms`, or `Retry-After` in seconds or as an HTTP date),
 * null when it named no wait. Null when the failure is no rate limit.
 */
export const rateLimitOf = (error: unknown): { retryAfterMs: number | null } | null => {
  for (const e of causes(error)) {
    if (APICallError.isInstance(e)) {
      return e.statusCode === 429 ? { retryAfterMs: retryAfterHeader(e.responseHeaders) } : null;
    }
    const carried = (e as { rateLimit?: unknown }).rateLimit;
    if (carried && typeof carried === 'object' && 'retryAfterMs' in carried) {
      const ms = (carried as { retryAfterMs: unknown }).retryAfterMs;
      return { retryAfterMs: typeof ms === 'number' && ms >= 0 ? ms : null };
    }
    if ((e as { code?: unknown }).code === 'provider:rate_limited') return { retryAfterMs: null };
  }
  return null;
};

const retryAfterHeader = (headers: Record<string, string> | undefined): number | null => {
  if (!headers) return null;
  const header = (name: string) =>
    Object.entries(headers)
      .find(([key]) => key.toLowerCase() === name)?.[1]
      ?.trim();
  const ms = Number(header('retry-after-ms'));
  if (header('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = header('retry-after');
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
};
