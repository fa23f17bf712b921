import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { badDateCode } from '@chorus/shared/api/dates';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { ErrorCode } from '@chorus/shared/error-codes';
import { asSentence } from '@chorus/shared/sentences';
import type { Logger } from '../logger.ts';

/**
 * A failure the client may see: a typed code (`area:reason`), a fitting status, a plain message.
 * The message is the code's own from the error catalogue unless given, and one that names
 * something comes from there too: `messageFor('keys:missing', { provider })`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string = messageFor(code),
    /** Headers the answer carries, such as `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const errorBody = (message: string, code: ErrorCode) => ({ error: message, code });

type ValidationCode = 'bad_request:validation' | typeof badDateCode;

/**
 * The code a zod issue answers with: a date of the wrong shape (`z.iso.date`, `z.iso.datetime`)
 * or out of range (a refinement with `params: { code }`, see `@chorus/shared/api/dates`) is
 * `request:bad_date`, and so is a union of dates none of whose branches fit; anything else is a
 * failed validation.
 */
const issueCode = (issue: z.core.$ZodIssue): ValidationCode => {
  if (issue.code === 'custom' && issue.params?.code === badDateCode) return badDateCode;
  if (issue.code === 'invalid_format' && (issue.format === 'date' || issue.format === 'datetime'))
    return badDateCode;
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const inner = issue.errors.flat();
    if (inner.length > 0 && inner.every((i) => issueCode(i) === badDateCode)) return badDateCode;
  }
  return 'bad_request:validation';
};

/** Turns a failed zod validation into a 400 a person can act on. */
export const validationHook = (
  result: { success: true } | { success: false; error: z.ZodError },
  c: Context,
) => {
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    // A particular code only when every problem is of its kind.
    const codes = new Set(result.error.issues.map(issueCode));
    const code: ValidationCode = codes.size === 1 ? [...codes][0]! : 'bad_request:validation';
    return c.json(errorBody(messageFor(code, { issues }), code), 400);
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
        status === 400
          ? messageFor('request:malformed_json')
          : err.message
            ? asSentence(err.message)
            : messageFor('request:failed');
      return c.json(
        errorBody(message, status === 400 ? 'request:malformed_json' : 'request:failed'),
        status,
      );
    }
    log.error(
      { err, requestId: c.get('requestId'), method: c.req.method, path: c.req.path },
      'unhandled error',
    );
    return c.json(errorBody(messageFor('server:internal'), 'server:internal'), 500);
  };
