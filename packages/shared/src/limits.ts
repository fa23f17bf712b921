import type { ProviderId } from './providers.ts';
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

/**
 * The server's `data` budget per user (ADR 009): spec §9's 50 per 60 s is the browser's own
 * window; the server allows this many (RATE_LIMIT_DATA_POINTS) with the same window and block.
 */
export const serverDataPointsDefault = 600;

/** Largest client error report accepted, in bytes of JSON (anything bigger is a 413). */
export const clientErrorMaxBytes = 16 * 1024;

/** Client error reports (`POST /rest/v1/client-errors`) per user, or per address for guests. */
export const clientErrorReportLimit: RateLimitWindow = {
  points: 30,
  windowSeconds: 60,
  blockSeconds: 60,
};

/** Access requests (`POST /rest/v1/access-requests`) per client address. */
export const accessRequestLimit: RateLimitWindow = {
  points: 5,
  windowSeconds: 60 * 60,
  blockSeconds: 60 * 60,
};

/** Views of a shared chat (`GET /rest/v1/shared/{token}`, public) per client address. */
export const sharedChatViewLimit: RateLimitWindow = {
  points: 60,
  windowSeconds: 60,
  blockSeconds: 60,
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

/** Spec §9: the browser's own limiter, global block, cooldown and recovery (issue 4). */
export const clientRateLimit = {
  /** A required delay up to this long is waited out; a longer one throws. */
  maxWaitMs: 10_000,
  globalBlockDefaultMs: 30_000,
  globalBlockMaxMs: 5 * 60_000,
  cooldownBaseMs: 5000,
  cooldownMaxMs: 60_000,
  jitterMaxMs: 1000,
  errorCountResetMs: 5 * 60_000,
  recovery: { maxAttempts: 3, cooldownMs: 5000, backoffBaseMs: 1000, backoffMaxMs: 10_000 },
  /** How long the 'Too many requests' toast stays. */
  toastMs: 6000,
  /** The 'Rate Limit Active' page offers 'Retry Now' once this many seconds or fewer remain. */
  retryNowAtSeconds: 5,
  /** Spec §4: a profile (or any read) that met a rate-limit error tries again after 2 s. */
  rateLimitedReadBackoffMs: 2000,
} as const;

/** Spec §4/§9: more than `maxCalls` calls within `windowMs` throttle a provider for `blockMs`. */
export const providerThrottle = { maxCalls: 3, windowMs: 1000, blockMs: 5000 } as const;

/** Spec §9: get-enabled-providers at most 3 calls per second, then blocked 5 s. */
export const enabledProvidersThrottle = { maxCalls: 3, windowMs: 1000, blockMs: 5000 } as const;

/** Spec §9: request de-duplication cache lifetimes, cleaned every 5 minutes. */
export const requestDedup = {
  authTtlMs: 30_000,
  profileTtlMs: 60_000,
  usageTtlMs: 30_000,
  defaultTtlMs: 10_000,
  cleanupMs: 5 * 60_000,
} as const;

/** Spec §4/§8/§9: the session manager's refresh timings and its circuit breaker. */
export const authRefresh = {
  tickMs: 30_000,
  /** Refresh when this many ticks or fewer remain before expiry. */
  refreshAtTicksLeft: 3,
  scheduleBeforeExpiryMs: 5 * 60_000,
  minScheduleDelayMs: 60_000,
  minIntervalMs: 5 * 60_000,
  lockMs: 15_000,
  breakerMaxFailures: 3,
  breakerOpenMs: 5 * 60_000,
  throttleMs: 500,
  retryableStatuses: [502, 503, 504],
  waitForAuth: { attempts: 3, backoffBaseMs: 100, backoffMaxMs: 2000 },
} as const;

/** Spec §4: tab leadership over BroadcastChannel. */
export const tabLeadership = {
  claimAfterMs: 1000,
  heartbeatMs: 2000,
  silenceMs: 5000,
  followerDelayMs: 1000,
} as const;

/** Spec §9: the diagnostics ring buffer keeps this many entries. */
export const diagnosticsBufferSize = 300;

/** Storage (issue 11). Sizes are in bytes; 1 MB is 1,048,576 bytes. */
export const MB = 1024 * 1024;

/**
 * What may be uploaded: the declared type must be one of these, and the first bytes must agree
 * with it (the server checks PDF, PNG, JPEG, GIF, WebP and ZIP/docx signatures; text types must
 * not carry a binary signature or NUL bytes). `extensions` feed a file input's `accept`.
 */
export const acceptedFileTypes = {
  'text/plain': { label: 'text (.txt)', extensions: ['.txt'] },
  'text/markdown': { label: 'Markdown (.md)', extensions: ['.md', '.markdown'] },
  'text/csv': { label: 'CSV (.csv)', extensions: ['.csv'] },
  'application/json': { label: 'JSON (.json)', extensions: ['.json'] },
  'application/pdf': { label: 'PDF (.pdf)', extensions: ['.pdf'] },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
    label: 'Word (.docx)',
    extensions: ['.docx'],
  },
  'text/html': { label: 'HTML (.html)', extensions: ['.html', '.htm'] },
  'image/png': { label: 'PNG', extensions: ['.png'] },
  'image/jpeg': { label: 'JPEG', extensions: ['.jpg', '.jpeg'] },
  'image/webp': { label: 'WebP', extensions: ['.webp'] },
  'image/gif': { label: 'GIF', extensions: ['.gif'] },
} as const satisfies Record<string, { label: string; extensions: readonly string[] }>;

export type AcceptedFileType = keyof typeof acceptedFileTypes;

export const acceptedFileTypeList = Object.keys(acceptedFileTypes) as AcceptedFileType[];

export const isAcceptedFileType = (type: string): type is AcceptedFileType =>
  Object.hasOwn(acceptedFileTypes, type);

/** What a file is for; the knowledge base and custom AIs store theirs through the same API. */
export const filePurposes = ['attachment', 'knowledge', 'avatar'] as const;
export type FilePurpose = (typeof filePurposes)[number];

/** A plan's `max_file_bytes` / `storage_quota_bytes` of null means these instance defaults. */
export const fileLimitDefaults = {
  maxFileBytes: 10 * MB,
  storageQuotaBytes: 100 * MB,
} as const;

/** The largest values an admin may give a plan. */
export const fileLimitCeilings = {
  maxFileBytes: 5 * 1024 * MB,
  storageQuotaBytes: 1024 * 1024 * MB,
} as const;

/** Signed download links (`POST /storage/v1/files/{id}/link`): 5 minutes unless asked, 1 hour at most. */
export const fileLinkTtlSeconds = { default: 5 * 60, min: 10, max: 60 * 60 } as const;

/** Spec §9: the enabled-providers list is cached 60 s, and this list stands in on a rate limit. */
export const enabledProvidersCacheMs = 60_000;
export const enabledProvidersFallback: readonly ProviderId[] = [
  'openai',
  'anthropic',
  'gemini',
  'deepseek',
  'mistral',
  'perplexity',
];

/** Providers whose chat models take images in a message (chat attachments, issue 17). */
export const imageInputProviders: readonly ProviderId[] = [
  'openai',
  'anthropic',
  'gemini',
  'mistral',
  'openrouter',
];
