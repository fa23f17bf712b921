import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { PgBoss, fromPglite, type Db as IDatabase } from 'pg-boss';
import type { Database } from '../db/client.ts';
import type { Logger } from '../logger.ts';

export type JobHandler<T> = (data: T) => Promise<void>;

/**
 * Background work on the application's own database (ARCHITECTURE §6, ADR 010): jobs survive
 * restarts and spread across server instances. Features register a handler per job name and
 * send jobs to it.
 */
export type JobQueue = {
  /** Creates the queue (once) and starts working it. */
  register<T extends object>(name: string, handler: JobHandler<T>): Promise<void>;
  send<T extends object>(
    name: string,
    data: T,
    opts?: { startAfter?: Date },
  ): Promise<string | null>;
  stop(): Promise<void>;
};

/** pg-boss's view of our database: PGlite through its adapter, PostgreSQL through our pool. */
const bossDatabase = (database: Database): IDatabase => {
  // drizzle keeps the driver's client on `$client`: the PGlite instance, or the pg pool.
  const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;
  if (database.driver === 'pglite') return fromPglite(client as PGlite);
  const pool = client as pg.Pool;
  return {
    executeSql: (text, values) =>
      values && values.length > 0 ? pool.query(text, values) : pool.query(text),
  };
};

export const startJobQueue = async (opts: {
  database: Database;
  log: Logger;
  /** How often idle workers look for due jobs; tests use pg-boss's minimum, 0.5. */
  pollingIntervalSeconds?: number;
}): Promise<JobQueue> => {
  const { log } = opts;
  const boss = new PgBoss({
    db: bossDatabase(opts.database),
    ...(opts.database.driver === 'pglite' && { backend: 'pglite' as const }),
    schedule: false,
  });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? 2;
  let stopped = false;
  return {
    async register(name, handler) {
      await boss.createQueue(name);
      await boss.work<Parameters<typeof handler>[0]>(
        name,
        { pollingIntervalSeconds },
        async (jobs) => {
          for (const job of jobs) await handler(job.data);
        },
      );
    },
    send: (name, data, sendOpts) =>
      boss.send(name, data, sendOpts?.startAfter ? { startAfter: sendOpts.startAfter } : {}),
    async stop() {
      if (stopped) return;
      stopped = true;
      // Lets running jobs finish (bounded), then closes without touching our database handle.
      await boss.stop({ graceful: true, timeout: 5_000, close: false });
    },
  };
};
