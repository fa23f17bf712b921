/** Business constants and limits of spec §9. Every timing lives here once. */

export type RateLimitCategory = 'auth' | 'token_refresh' | 'conversation_create' | 'data';

export type RateLimitWindow = {
  /** Requests allowed per window. */
  points: number;
  /** Window length in seconds. */
  windowSeconds: number;
  /** How long a caller is blocked once the window is exceeded, in seconds. */
  blockSeconds: number;
};

export const rateLimitWindows: Record<RateLimitCategory, RateLimitWindow> = {
  auth: { points: 10, windowSeconds: 60, blockSeconds: 30 },
  token_refresh: { points: 5, windowSeconds: 60, blockSeconds: 60 },
  conversation_create: { points: 20, windowSeconds: 60, blockSeconds: 10 },
  data: { points: 50, windowSeconds: 60, blockSeconds: 10 },
};

export const toastDefaults = {
  durationMs: 4000,
  visibleToasts: 3,
  widthPx: 356,
  gapPx: 14,
} as const;

export const messagePageSize = 200;

export const queryRetry = {
  attempts: 3,
  delayMs: (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000),
} as const;

export const passwordRules = { minLength: 8, maxLength: 128 } as const;

/** Spec §9: session fetch timeout 4 s, session cache 5 s, auth cache 30 s. */
export const sessionTimings = {
  fetchTimeoutMs: 4000,
  cacheMs: 5000,
  authCacheMs: 30_000,
} as const;
