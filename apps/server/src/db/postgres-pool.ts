import pg from 'pg';
import { responsiveTimeout, withinResponsive } from '../lib/responsive-timeout.ts';
import { DatabaseUnavailableError, isClientTimeout, isConnectionLost } from './database-errors.ts';

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
/**
 * A check that gets no answer within this finds the database unreachable: responsive time, in
 * which this process's event loop was free to hear the answer (responsive-timeout.ts).
 */
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

/** A client's socket, to cut a connection that hangs (end() would wait for it). */
const cutSocket = (client: pg.Client) =>
  (
    client as unknown as { connection?: { stream?: { destroy(): void } } }
  ).connection?.stream?.destroy();

/** The database said nothing while this process listened: what marks it unreachable. */
export class DatabaseSilentError extends Error {
  override name = 'DatabaseSilentError';
  constructor(ms: number, lagMs: number) {
    super(
      `The database did not answer a check within ${ms} ms${lagMs > 0 ? ` (and ${lagMs} ms more in which this process was too busy to listen)` : ''}.`,
    );
  }
}

/**
 * A pool whose every wait is bounded (issue 13, point 14):
 * - opening a connection, and queueing for one, within `connectTimeoutMs`;
 * - each statement within PostgreSQL's statement_timeout, and its answer on the client a little
 *   later (a stalled link lets no cancel through);
 * - at most `maxWaiting` requests queued;
 * - and once the database is found unreachable, no work is sent until it answers again: requests
 *   fail at once with DatabaseUnavailableError instead of each waiting out the timeouts.
 *
 * Unreachable means the server or the kernel said so (refused, reset, cut), or a check on a fresh
 * connection got no answer. Checks run whenever a connection has been held for a second (a
 * stalled link and a slow statement look the same from their own connection, but not from a new
 * one), and whenever one of our own timers ran out. When a check fails every connection is cut,
 * so requests waiting on a dead link fail within seconds too.
 *
 * A busy process is not a lost database: the waits for a connection and the check count
 * responsive time, in which the event loop was free to hear an answer (responsive-timeout.ts),
 * not wall time, so a CPU-bound burst or a paused process (SIGSTOP) finds the answer waiting
 * when it looks again instead of calling the database gone; and our own timeouts only ask for a
 * check, never mark the database lost themselves.
 */
export const createPostgresPool = (url: string, settings: PoolSettings): pg.Pool => {
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.size,
    application_name: 'chorus',
    // Bounded below in responsive time; pg's own timer would run on the wall clock.
    connectionTimeoutMillis: 0,
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
    const client = new pg.Client({ connectionString: url, application_name: 'chorus' });
    client.on('error', () => undefined);
    try {
      await withinResponsive(
        (async () => {
          await client.connect();
          await client.query('select 1');
        })(),
        CHECK_TIMEOUT_MS,
        (lagMs) => new DatabaseSilentError(CHECK_TIMEOUT_MS, lagMs),
        () => cutSocket(client),
      );
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
  /** Checks on a fresh connection that the database answers; marks it lost if not. */
  const check = () => {
    if (lost || checking || closed) return;
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
  };
  const observe = (err: unknown) => {
    if (isConnectionLost(err)) markLost(err);
    else if (isClientTimeout(err)) check();
  };

  const watchdog = setInterval(() => {
    const now = Date.now();
    if ([...checkedOut.values()].some((since) => now - since > SUSPECT_AFTER_MS)) check();
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
    // The wait for a connection, bounded in responsive time. A connection that comes after the
    // caller gave up goes straight back to the pool.
    const attempt = new Promise<pg.PoolClient>((resolve, reject) => {
      let settled = false;
      const timeout = responsiveTimeout(settings.connectTimeoutMs, () => {
        settled = true;
        check();
        reject(
          new DatabaseUnavailableError(
            `No database connection within ${settings.connectTimeoutMs} ms.`,
          ),
        );
      });
      connect((err: Error | undefined, client: pg.PoolClient | undefined) => {
        timeout.cancel();
        if (settled) {
          client?.release();
          return;
        }
        settled = true;
        if (err || !client) {
          observe(err);
          reject(err ?? new Error('No connection.'));
        } else resolve(client);
      });
    });
    if (!callback) return attempt;
    attempt.then(
      (client) => callback(undefined, client, (e?: Error | boolean) => client.release(e)),
      (err: Error) => callback(err),
    );
    return undefined;
  }) as typeof pool.connect;

  const end = pool.end.bind(pool);
  pool.end = (() => {
    closed = true;
    clearInterval(watchdog);
    return end();
  }) as typeof pool.end;
  return pool;
};
