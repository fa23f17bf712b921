import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { ErrorCode } from '@chorus/shared/error-codes';
import type { Logger } from '../logger.ts';

/** A failure the client may see: a typed code (`area:reason`), a fitting status, a plain message. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    /** Headers the answer carries, such as `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const errorBody = (message: string, code: ErrorCode) => ({ error: message, code });

const describeIssue = (issue: z.core.$ZodIssue): string => {
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
};

/** Turns a failed zod validation into a 400 a person can act on. */
export const validationHook = (
  result: { success: true } | { success: false; error: z.ZodError },
  c: Context,
) => {
  if (!result.success) {
    const message = result.error.issues.map(describeIssue).join('; ');
    return c.json(errorBody(message, 'bad_request:validation'), 400);
  }
  return undefined;
};

export const errorHandler =
  (log: Logger): ErrorHandler =>
  (err, c) => {
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return c.json(errorBody(err.message, err.code), err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's body parsers throw 400 on malformed JSON.
      const status = err.status as ContentfulStatusCode;
      const message =
        status === 400 ? 'The request body is not valid JSON.' : err.message || 'Request failed';
      return c.json(
        errorBody(message, status === 400 ? 'request:malformed_json' : 'request:failed'),
        status,
      );
    }
    log.error(
      { err, requestId: c.get('requestId'), method: c.req.method, path: c.req.path },
      'unhandled error',
    );
    return c.json(
      errorBody(
        'Something went wrong on our side. Please try again in a moment.',
        'server:internal',
      ),
      500,
    );
  };
