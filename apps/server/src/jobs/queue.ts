import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { PgBoss, fromPglite, type Db as IDatabase } from 'pg-boss';
import type { FailedJob, JobQueueSummary } from '@chorus/shared/api/jobs';
import type { Database } from '../db/client.ts';
import type { Logger } from '../logger.ts';

/**
 * One kind of background work (ARCHITECTURE §6, §11). `C` is what a run is handed (the server's
 * Deps); the queue itself knows nothing of it, so this module stays below the HTTP layer.
 */
export type JobDefinition<C> = {
  /** The queue's name; also the name of its cron schedule. */
  name: string;
  /** What the back office calls it. */
  title: string;
  /** Recurring work: a cron expression evaluated in UTC (five fields, or six with seconds). */
  cron?: string;
  /** pg-boss retries a run that threw, `limit` times, waiting `delaySeconds` (doubling). */
  retry?: { limit: number; delaySeconds: number };
  /** A run still going after this long counts as failed (and is retried). */
  expireInSeconds?: number;
  /** One run at a time across every instance (pg-boss's `singleton` queue policy). */
  singleton?: boolean;
  /** How long a completed run is kept (pg-boss keeps them 7 days): less, for frequent work. */
  keepCompletedSeconds?: number;
  /**
   * A job sent from this instance wakes the worker here at once instead of waiting for its next
   * poll: for work a person is waiting on, such as the mail of a reset request.
   */
  eager?: boolean;
  run(data: object, ctx: C): Promise<void>;
  /**
   * Called once the queue runs: hooks another part of the server up to it (mail retries), or
   * starts a timer of its own (`running` turns false once the queue stops).
   */
  attach?(queue: JobSender & { readonly running: boolean }, ctx: C): void;
};

/** A typed job: `run` gets its own data shape; the list holds them side by side. */
export const defineJob = <C, T extends object>(
  job: Omit<JobDefinition<C>, 'run'> & { run(data: T, ctx: C): Promise<void> },
): JobDefinition<C> => ({ ...job, run: (data, ctx) => job.run(data as T, ctx) });

export type SendOptions = {
  startAfter?: Date;
  /** At most one queued job per key: a second send with the same key is dropped. */
  singletonKey?: string;
  /**
   * At most one job per this many seconds (slots aligned on the clock), whichever instance sends
   * it: the other sends of the slot are dropped (pg-boss's `singletonSeconds`).
   */
  throttleSeconds?: number;
};

export type JobSender = {
  send(name: string, data: object, opts?: SendOptions): Promise<string | null>;
};

export type JobQueue = JobSender & {
  /** Creates every queue, stores every cron schedule (dropping ones no longer listed), works them. */
  start<C>(definitions: readonly JobDefinition<C>[], ctx: C): Promise<void>;
  readonly running: boolean;
  summaries(): Promise<JobQueueSummary[]>;
  failedJobs(name: string, limit: number): Promise<FailedJob[]>;
  /** Runs a failed job again; false when there is no such failed job. */
  retry(name: string, id: string): Promise<boolean>;
  /** Lets running jobs finish (bounded), then stops working; the database stays open. */
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

/** What a failed run's output holds: pg-boss stores the thrown error, serialised. */
const errorText = (output: unknown) => {
  const message =
    output && typeof output === 'object' && 'message' in output
      ? String((output as { message: unknown }).message)
      : output == null
        ? 'No error was recorded.'
        : JSON.stringify(output);
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
};

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

/** How often, by default, due cron occurrences (schedules' ticks among them) are looked for. */
const DEFAULT_CRON_INTERVAL_SECONDS = 5;

/**
 * Background work on the application's own database (ADR 010, 014): jobs survive restarts and
 * spread across instances, and cron schedules live in the database, so each occurrence runs once
 * whatever the number of instances. Nothing touches the database until `start`.
 */
export const createJobQueue = (opts: {
  database: Database;
  log: Logger;
  /** How often idle workers look for due jobs; tests use pg-boss's minimum, 0.5. */
  pollingIntervalSeconds?: number;
  /** How often due cron occurrences are looked for; tests use 1 to see per-second schedules. */
  cronIntervalSeconds?: number;
}): JobQueue => {
  const { database, log } = opts;
  let boss: PgBoss | undefined;
  let listed: { name: string; title: string; cron: string | null }[] = [];
  /** The worker of each eager queue on this instance. */
  const eagerWorkers = new Map<string, string>();
  let stopping: Promise<void> | undefined;

  const started = () => {
    if (!boss || stopping) throw new Error('The job queue is not running.');
    return boss;
  };
  const query = async <T>(text: string, values: unknown[]) =>
    (await started().getDb().executeSql(text, values)).rows as T[];

  const queue: JobQueue = {
    get running() {
      return boss !== undefined && !stopping;
    },

    async start(definitions, ctx) {
      if (boss) throw new Error('The job queue is already running.');
      const instance = new PgBoss({
        db: bossDatabase(database),
        ...(database.driver === 'pglite' && { backend: 'pglite' as const }),
        schedule: true,
        // pg-boss looks for due cron occurrences every 30 s unless told otherwise: a user's
        // "every minute at :00" would start up to half a minute late. Every few seconds costs one
        // small query per instance.
        cronMonitorIntervalSeconds: opts.cronIntervalSeconds ?? DEFAULT_CRON_INTERVAL_SECONDS,
        cronWorkerIntervalSeconds: opts.cronIntervalSeconds ?? DEFAULT_CRON_INTERVAL_SECONDS,
      });
      instance.on('error', (error) => log.error({ err: error }, 'job queue error'));
      await instance.start();
      boss = instance;
      const pollingIntervalSeconds = opts.pollingIntervalSeconds ?? 2;
      for (const job of definitions) {
        const options = {
          retryLimit: job.retry?.limit ?? 0,
          retryDelay: job.retry?.delaySeconds ?? 0,
          retryBackoff: (job.retry?.delaySeconds ?? 0) > 0,
          ...(job.expireInSeconds && { expireInSeconds: job.expireInSeconds }),
          ...(job.keepCompletedSeconds && { deleteAfterSeconds: job.keepCompletedSeconds }),
        };
        // Created once (the policy is fixed then); later starts bring the other options up to date.
        await instance.createQueue(job.name, {
          ...options,
          ...(job.singleton && { policy: 'singleton' as const }),
        });
        await instance.updateQueue(job.name, options);
        // Read by the handler, which may run before `work` has answered with the id.
        const worker: { id?: string } = {};
        worker.id = await instance.work<object>(
          job.name,
          { pollingIntervalSeconds },
          async (jobs) => {
            for (const one of jobs) {
              try {
                await job.run(one.data ?? {}, ctx);
              } catch (error) {
                log.warn({ err: error, job: job.name, id: one.id }, 'job failed');
                throw error;
              } finally {
                // An eager queue is drained without waiting between jobs; an empty fetch ends it.
                if (job.eager && worker.id) instance.notifyWorker(worker.id);
              }
            }
          },
        );
        if (job.eager) eagerWorkers.set(job.name, worker.id);
        // Upserted by name: every instance stores the same schedule, and it fires once.
        if (job.cron) await instance.schedule(job.name, job.cron, null, { tz: 'UTC' });
      }
      const names = new Set(definitions.map((d) => d.name));
      for (const schedule of await instance.getSchedules()) {
        if (!names.has(schedule.name)) await instance.unschedule(schedule.name, schedule.key);
      }
      listed = definitions.map((d) => ({ name: d.name, title: d.title, cron: d.cron ?? null }));
      for (const job of definitions) job.attach?.(queue, ctx);
    },

    async send(name, data, sendOpts = {}) {
      const instance = started();
      const id = await instance.send(name, data, {
        ...(sendOpts.startAfter && { startAfter: sendOpts.startAfter }),
        ...(sendOpts.singletonKey && { singletonKey: sendOpts.singletonKey }),
        ...(sendOpts.throttleSeconds && { singletonSeconds: sendOpts.throttleSeconds }),
      });
      const worker = eagerWorkers.get(name);
      if (id !== null && worker && !sendOpts.startAfter) instance.notifyWorker(worker);
      return id;
    },

    async summaries() {
      const instance = started();
      type Row = Omit<JobQueueSummary, 'title' | 'cron' | 'next_run_at'>;
      // One pass over pg-boss's job table (its parent table spans every queue's partition).
      const rows = await query<Row>(
        `select name,
           count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as ready,
           count(*) filter (where state in ('created', 'retry') and start_after > now())::int as deferred,
           count(*) filter (where state = 'active')::int as active,
           count(*) filter (where state = 'failed')::int as failed,
           count(*) filter (where state = 'completed')::int as completed,
           max(completed_on) filter (where state = 'completed') as last_completed_at
         from pgboss.job where name = any($1::text[]) group by name`,
        [listed.map((q) => q.name)],
      );
      const byName = new Map(rows.map((r) => [r.name, r]));
      return listed.map((q) => {
        const row = byName.get(q.name);
        const next = q.cron ? instance.previewSchedule(q.cron, { tz: 'UTC', count: 1 })[0] : null;
        return {
          ...q,
          ready: Number(row?.ready ?? 0),
          deferred: Number(row?.deferred ?? 0),
          active: Number(row?.active ?? 0),
          failed: Number(row?.failed ?? 0),
          completed: Number(row?.completed ?? 0),
          last_completed_at: iso(row?.last_completed_at),
          next_run_at: next ? next.toISOString() : null,
        };
      });
    },

    async failedJobs(name, limit) {
      type Row = {
        id: string;
        created_on: string;
        completed_on: string | null;
        retry_count: number;
        output: unknown;
      };
      const rows = await query<Row>(
        `select id, created_on, completed_on, retry_count, output from pgboss.job
         where name = $1 and state = 'failed'
         order by completed_on desc nulls last, id limit $2`,
        [name, limit],
      );
      return rows.map((r) => ({
        id: r.id,
        created_at: iso(r.created_on)!,
        failed_at: iso(r.completed_on),
        retry_count: Number(r.retry_count),
        error: errorText(r.output),
      }));
    },

    async retry(name, id) {
      // pg-boss answers { requested, affected } here, though its type declares no fields.
      const answer = (await started().retry(name, id)) as { affected?: number };
      return (answer.affected ?? 0) > 0;
    },

    stop() {
      stopping ??= (async () => {
        // Lets running jobs finish (bounded), then closes without touching our database handle.
        await boss?.stop({ graceful: true, timeout: 5_000, close: false });
      })();
      return stopping;
    },
  };
  return queue;
};
