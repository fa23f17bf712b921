import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';
import { ApiError } from './errors.ts';

/**
 * NUL, which PostgreSQL cannot store in text, and a surrogate half with no partner, which is not
 * a character at all. Either in a request once became an unhandled database error (a 500).
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const invalidText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether any string in `value` (keys included) holds text that cannot be stored. */
export const hasInvalidText = (value: unknown, depth = 0): boolean => {
  if (typeof value === 'string') return invalidText.test(value);
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => hasInvalidText(item, depth + 1));
  return Object.entries(value).some(
    ([key, item]) => invalidText.test(key) || hasInvalidText(item, depth + 1),
  );
};

const refusal = () => new ApiError(400, 'request:invalid_text');

/**
 * Refuses such text in the path, the query and a JSON body before any route reads it, so every
 * schema after it sees only storable text and nothing is charged or written for a bad request.
 * The body is read from a copy: whatever handles the request still reads the original. File
 * uploads (`jsonBody: false`) stream; only their name and query are checked.
 */
export const refuseInvalidText = (opts: { jsonBody: boolean }) =>
  createMiddleware<AppEnv>(async (c, next) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      throw refusal();
    }
    if (invalidText.test(path) || hasInvalidText(c.req.queries())) throw refusal();
    if (invalidText.test(c.req.header('x-file-name') ?? '')) throw refusal();
    if (opts.jsonBody && c.req.header('content-type')?.includes('application/json')) {
      let body: unknown;
      try {
        body = await c.req.raw.clone().json();
      } catch {
        body = undefined;
      }
      if (hasInvalidText(body)) throw refusal();
    }
    return next();
  });
