import type { ErrorCode } from '@chorus/shared/error-codes';

// The shape of a code (`area:reason`), not a lookup in the list of codes: this module is part of
// every page's first paint, and the list (2 KB of gzip, growing with each new failure) is not.
// A code the web has no words for finds none in its maps and falls back to the server's message.
const codePattern = /^[a-z_]+:[a-z_]+$/;

/** A failed HTTP call: the status, the API's error code, and the message a person can act on. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  /** Seconds from a 429's Retry-After header, when given. */
  readonly retryAfterSeconds: number | undefined;
  /** The error's JSON body, for the few refusals that carry more than a message (an import's rows). */
  readonly body: Record<string, unknown> | undefined;

  constructor(
    status: number,
    message: string,
    options: {
      code?: ErrorCode | undefined;
      retryAfterSeconds?: number | undefined;
      body?: Record<string, unknown> | undefined;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.body = options.body;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** Client errors (4xx) will fail the same way again, so they are never retried. */
export const isClientError = (error: unknown): boolean =>
  isApiError(error) && error.status >= 400 && error.status < 500;

export const errorMessage = (error: unknown, fallback = 'Something went wrong'): string =>
  error instanceof Error && error.message ? error.message : fallback;

const readRetryAfter = (response: Response): number | undefined => {
  const header = response.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
};

/** Builds an ApiError from a non-2xx response whose body is `{error}` or `{message}`. */
export const apiErrorFromResponse = async (response: Response): Promise<ApiError> => {
  let message = response.statusText || `Request failed with status ${response.status}`;
  let code: ErrorCode | undefined;
  let record: Record<string, unknown> | undefined;
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object') {
      record = body as Record<string, unknown>;
      const text = record.error ?? record.message;
      if (typeof text === 'string' && text) message = text;
      if (typeof record.code === 'string' && codePattern.test(record.code)) {
        code = record.code as ErrorCode;
      }
    }
  } catch {
    // Not JSON: keep the status text.
  }
  return new ApiError(response.status, message, {
    code,
    retryAfterSeconds: readRetryAfter(response),
    body: record,
  });
};
