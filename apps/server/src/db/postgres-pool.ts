import pg from 'pg';
import { DatabaseUnavailableError, isConnectionLost } from './database-errors.ts';

/** How a PostgreSQL pool waits, and for how long, before a request is answered 503 (config.ts). */
export type PoolSettings = {
  /** Connections at most. */
  size: number;
  /** Requests that may wait for a connection; past that they fail at once. */
  maxWaiting: number;
  /** To open a connection, or to wait for one from the pool. */
  connectTimeoutMs: number;
  /** PostgreSQL's statement_timeout; the client gives up on an answer a little after it. */
  statementTimeoutMs: number;
};

export const defaultPoolSettings: PoolSettings = {
  size: 20,
  maxWaiting: 1_000,
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
};

/** While the database is away, how often a fresh connection checks whether it is back. */
const PROBE_INTERVAL_MS = 500;
/** A connection held this long makes the pool check, on a fresh one, that the link is alive. */
const SUSPECT_AFTER_MS = 1_000;
/** A check that gets no answer within this finds the database unreachable. */
const CHECK_TIMEOUT_MS = 2_000;

/** A SQLSTATE the server sent, other than "connection" (08) or "shutting down" (57P0x). */
const answeredByServer = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57P0)/.test(code);
};

/** pg-pool's own lists; only to cut everything short once the database is gone. */
type PrivatePool = {
  _clients: (pg.PoolClient & { connection?: { stream?: { destroy(): void } } })[];
  _pendingQueue: { callback(err: Error): void }[];
};

/**
 * A pool whose every wait is bounded (issue 13, point 14):
 * - opening a connection, and queueing for one, within `connectTimeoutMs`;
 * - each statement within PostgreSQL's statement_timeout, and its answer on the client a little
 *   later (a stalled link lets no cancel through);
 * - at most `maxWaiting` requests queued;
 * - and once the database is found unreachable, no work is sent until it answers again: requests
 *   fail at once with DatabaseUnavailableError instead of each waiting out the timeouts.
 *
 * Unreachable means a connection was refused or cut, or a check on a fresh connection got no
 * answer. Checks run whenever a connection has been held for a second: a stalled link and a slow
 * statement look the same from their own connection, but not from a new one. When the check
 * fails every connection is cut, so requests waiting on a dead link fail within seconds too.
 */
export const createPostgresPool = (url: string, settings: PoolSettings): pg.Pool => {
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.size,
    application_name: 'chorus',
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    query_timeout: settings.statementTimeoutMs + 2_000,
    idle_in_transaction_session_timeout: settings.statementTimeoutMs,
    // Finds a peer that vanished without a word on connections that sit idle.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });

  /** Why the database counts as unreachable; undefined while it answers. */
  let lost: Error | undefined;
  let checking = false;
  let closed = false;
  const checkedOut = new Map<pg.PoolClient, number>();

  /** Resolves when a fresh connection answers; rejects with why it did not. */
  const answers = async () => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: Math.min(settings.connectTimeoutMs, CHECK_TIMEOUT_MS),
      query_timeout: CHECK_TIMEOUT_MS,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      void client.end().catch(() => undefined);
    }
  };

  const probeUntilBack = () => {
    const timer = setTimeout(() => {
      if (closed) return;
      answers().then(
        () => (lost = undefined),
        () => probeUntilBack(),
      );
    }, PROBE_INTERVAL_MS);
    timer.unref();
  };

  const markLost = (err: unknown) => {
    if (lost || closed) return;
    lost = err instanceof Error ? err : new Error(String(err));
    // Work on a dead link, or queued for one, would wait out its timeouts: it fails now instead.
    const inside = pool as unknown as PrivatePool;
    for (const client of inside._clients) client.connection?.stream?.destroy();
    const refusal = new DatabaseUnavailableError('The database cannot be reached.', {
      cause: lost,
    });
    for (const waiting of inside._pendingQueue.splice(0)) waiting.callback(refusal);
    probeUntilBack();
  };
  const observe = (err: unknown) => {
    if (isConnectionLost(err)) markLost(err);
  };

  const watchdog = setInterval(() => {
    if (lost || checking || closed) return;
    const now = Date.now();
    const held = [...checkedOut.values()].some((since) => now - since > SUSPECT_AFTER_MS);
    if (!held) return;
    checking = true;
    answers()
      .then(
        () => undefined,
        (err: unknown) => {
          // An error the server sent (too many connections, say) is a busy database, not a
          // missing one; anything else (no answer in time, refused, cut) is.
          if (!answeredByServer(err)) markLost(err);
        },
      )
      .finally(() => (checking = false));
  }, PROBE_INTERVAL_MS);
  watchdog.unref();

  // An idle client losing its connection must not take the process down; it says the link is gone.
  pool.on('error', observe);
  pool.on('acquire', (client) => checkedOut.set(client, Date.now()));
  pool.on('release', (err, client) => {
    checkedOut.delete(client);
    if (err) observe(err);
  });
  pool.on('remove', (client) => checkedOut.delete(client));

  const connect = pool.connect.bind(pool);
  pool.connect = ((callback?: (err: Error | undefined, ...rest: unknown[]) => void) => {
    const refusal = lost
      ? new DatabaseUnavailableError('The database cannot be reached.', { cause: lost })
      : pool.waitingCount >= settings.maxWaiting
        ? new DatabaseUnavailableError(
            `All ${settings.size} database connections are busy and ${settings.maxWaiting} requests wait already.`,
          )
        : undefined;
    if (refusal) {
      if (!callback) return Promise.reject(refusal);
      process.nextTick(() => callback(refusal));
      return undefined;
    }
    if (!callback) {
      return connect().catch((err: unknown) => {
        observe(err);
        throw err;
      });
    }
    return connect((err, ...rest) => {
      if (err) observe(err);
      callback(err, ...rest);
    });
  }) as typeof pool.connect;

  const end = pool.end.bind(pool);
  pool.end = (() => {
    closed = true;
    clearInterval(watchdog);
    return end();
  }) as typeof pool.end;
  return pool;
};
