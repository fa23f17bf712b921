import { sql } from 'drizzle-orm';
import type { Context, ErrorHandler } from 'hono';
import { messageFor } from '@chorus/shared/error-catalogue';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../db/database-errors.ts';
import { withinResponsive } from '../lib/responsive-timeout.ts';
import type { AppEnv, Deps } from './app-env.ts';
import { errorBody } from './errors.ts';

/**
 * /healthz answers within this, whatever the database does (issue 13, point 14): of responsive
 * time, which is wall time unless this process is too busy to answer anyway.
 */
export const HEALTH_TIMEOUT_MS = 1_000;

/** What a client is told to wait before trying again while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Why the database cannot serve right now: the error of a `select 1` that failed for want of a
 * database, or a DatabaseUnavailableError when it got no answer within HEALTH_TIMEOUT_MS. Null
 * when it answered. For failures whose cause was swallowed on the way (better-auth answers a
 * failed read with "Failed to get session" and keeps the cause to its log).
 */
export const databaseFault = async (deps: Pick<Deps, 'database'>): Promise<Error | null> => {
  const answer = await withinResponsive(
    deps.database.db.execute(sql`select 1`),
    HEALTH_TIMEOUT_MS,
    () => new DatabaseUnavailableError('The database did not answer in time.'),
  ).then(
    () => null,
    (error: unknown) => error,
  );
  return answer instanceof Error && isDatabaseUnavailable(answer) ? answer : null;
};

/**
 * GET /healthz and GET /readyz: 200 `{status: 'ok', database: 'ok', realtime}` when the database answers within
 * a second and the change feed listens; 503 with what is wrong otherwise, so a load balancer
 * sends people elsewhere. `realtime` is `off` where no socket server is attached (tests).
 */
export const healthCheck = async (c: Context<AppEnv>) => {
  const { deps } = c.var;
  // Responsive time (responsive-timeout.ts): a busy moment of this process is not the database's.
  const database = await withinResponsive(
    deps.database.db.execute(sql`select 1`),
    HEALTH_TIMEOUT_MS,
    () => new Error('no answer in time'),
  ).then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
  const hub = deps.realtime.health();
  const realtime =
    hub === 'unavailable' || deps.invalidation.health() === 'unavailable' ? 'unavailable' : hub;
  const ok = database === 'ok' && realtime !== 'unavailable';
  return c.json({ status: ok ? 'ok' : 'unavailable', database, realtime }, ok ? 200 : 503);
};

/** GET /livez: the process is up and its event loop turns. Asks nothing of the database. */
export const livenessCheck = (c: Context<AppEnv>) => c.json({ status: 'ok' });

/**
 * Wraps the app's error handler: a request that failed because the database is unreachable or
 * too slow is a 503 with Retry-After and its own code, not a 500 (and not a bug worth a stack).
 */
export const answeringDatabaseUnavailable =
  (handler: ErrorHandler<AppEnv>): ErrorHandler<AppEnv> =>
  (err, c) => {
    if (!isDatabaseUnavailable(err)) return handler(err, c);
    c.var.deps.log.warn({ method: c.req.method, path: c.req.path }, 'database unavailable');
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    return c.json(
      errorBody(
        messageFor('database:unavailable', { seconds: DATABASE_RETRY_AFTER_SECONDS }),
        'database:unavailable',
      ),
      503,
    );
  };
