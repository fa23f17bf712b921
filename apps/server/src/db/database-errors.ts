/**
 * The database could not be reached in time: refused, cut off, shutting down, or too slow (a
 * connection, a pool slot or an answer that did not come within its limit). Such failures say
 * nothing about the request, so they are worth retrying later, and the client gets a 503.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** Node's socket errors when the server is away or the link is broken. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: class 08 (connection exception), 57P01–57P03 (shutting down, crashed,
 * starting up), 53300 (too many connections), 57014 (cancelled: statement_timeout).
 */
const sqlStates = /^(08...|57P0[123]|53300|57014)$/;

/** node-postgres and its pool say these in words only. */
const driverMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
];

/** Walks `error` and what it wraps (drizzle wraps the driver's error; retries keep causes). */
const someCause = (error: unknown, test: (e: object) => boolean): boolean => {
  let e: unknown = error;
  for (let depth = 0; e && depth < 6; depth++) {
    if (typeof e === 'object' && test(e)) return true;
    // AggregateError: a connection tried over IPv4 and IPv6 fails with both.
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.some((i) => someCause(i, test))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};

/**
 * The server or the link to it is gone, as opposed to the database being busy (a statement
 * cancelled by its timeout, a full pool) or merely slow to answer us: what makes the pool stop
 * sending work (postgres-pool.ts). Only what the server or the kernel said counts (refused, reset,
 * cut, a SQLSTATE of class 08 or 57P0x); a timeout of our own does not (isClientTimeout).
 */
export const isConnectionLost = (error: unknown): boolean =>
  someCause(error, (e) => {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (socketCodes.has(code) || /^(08...|57P0[123])$/.test(code)))
      return true;
    return (
      typeof message === 'string' &&
      ['Connection terminated unexpectedly', 'is not queryable'].some((m) => message.includes(m))
    );
  });

/**
 * A timer of this process ran out while it waited for the database (a connection, an answer).
 * That may be the database's silence, or this process being too busy or paused to read an answer
 * that came: the pool checks on a fresh connection before it believes the link lost.
 */
export const isClientTimeout = (error: unknown): boolean =>
  someCause(error, (e) => {
    const { message } = e as { message?: unknown };
    return (
      typeof message === 'string' &&
      [
        'Connection terminated due to connection timeout',
        'Query read timeout',
        'timeout exceeded when trying to connect',
      ].some((m) => message.includes(m))
    );
  });

/** True when `error`, or what it wraps (drizzle wraps the driver's error), is unavailability. */
export const isDatabaseUnavailable = (error: unknown): boolean =>
  someCause(error, (e) => {
    if (e instanceof DatabaseUnavailableError) return true;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (socketCodes.has(code) || sqlStates.test(code))) return true;
    return typeof message === 'string' && driverMessages.some((m) => message.includes(m));
  });
