import { createMiddleware } from 'hono/factory';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { AppEnv } from './app-env.ts';
import { ApiError } from './errors.ts';

/**
 * NUL, which PostgreSQL cannot store in text, and a surrogate half with no partner, which is not
 * a character at all. Either in a request once became an unhandled database error (a 500).
 */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const invalidText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * How deep a JSON body may nest: far beyond any request the app sends (a tool's JSON schema, a
 * workflow), and far short of what overflows the stack of the code that reads it. A body 20,000
 * levels deep was a 500 wherever a route stringified it (an audit entry's details, a tool's
 * input schema); and text below the depth this check looks at would not be checked at all.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * What is wrong with a JSON value, if anything: text that cannot be stored in any string (keys
 * included), or nesting deeper than MAX_JSON_DEPTH.
 */
export const jsonProblem = (value: unknown, depth = 0): 'invalid_text' | 'too_deep' | null => {
  if (typeof value === 'string') return invalidText.test(value) ? 'invalid_text' : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_JSON_DEPTH) return 'too_deep';
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (invalidText.test(key)) return 'invalid_text';
    const problem = jsonProblem(item, depth + 1);
    if (problem) return problem;
  }
  return null;
};

/** Whether any string in `value` (keys included) holds text that cannot be stored. */
export const hasInvalidText = (value: unknown): boolean => jsonProblem(value) === 'invalid_text';

const refusal = () => new ApiError(400, 'request:invalid_text');

/**
 * Refuses such text in the path, the query and a JSON body before any route reads it, so every
 * schema after it sees only storable text and nothing is charged or written for a bad request;
 * and a JSON body nested deeper than MAX_JSON_DEPTH (`request:too_deep`), for the same reason.
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
      const problem = jsonProblem(body);
      if (problem === 'invalid_text') throw refusal();
      if (problem === 'too_deep')
        throw new ApiError(
          400,
          'request:too_deep',
          messageFor('request:too_deep', { max: MAX_JSON_DEPTH }),
        );
    }
    return next();
  });
