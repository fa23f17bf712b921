import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { withinResponsive } from '../lib/responsive-timeout.ts';
import { createPostgresPool, defaultPoolSettings, type PoolSettings } from './postgres-pool.ts';
import * as schema from './schema/index.ts';
import { ensureVectorStore } from './vector-store.ts';

export type Schema = typeof schema;
/** One type for both drivers; repositories never need to know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** An open transaction of `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a repository's queries run on: the database itself or a transaction in progress. */
export type Queryable = Db | Tx;

/** The rows of a raw `db.execute(sql…)`; both drivers answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The minimal client rate-limiter-flexible's Postgres store needs. */
export type SqlClient = {
  query(q: { text: string; values?: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
};

export type Database = {
  db: Db;
  driver: 'pglite' | 'postgres';
  sqlClient: SqlClient;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * LISTEN on a channel; NOTIFY from any connection (any server instance) reaches `onPayload`.
   * Resolves to an unsubscribe function once the first attempt to listen has ended, whether it
   * succeeded or not: on PostgreSQL it keeps trying until it does, and after every drop.
   * `onFeed` hears each change between listening (`up`) and not (`down`); notifications sent
   * while down are lost.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onFeed?: (state: FeedState) => void,
  ): Promise<() => Promise<void>>;
};

export type FeedState = 'up' | 'down';

/** Migrations sit beside the sources (`apps/server/drizzle`) and beside the bundle (`dist/drizzle`). */
export const migrationsFolder = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundled = path.join(here, 'drizzle');
  return existsSync(bundled) ? bundled : path.join(here, '..', '..', 'drizzle');
})();

/** PostgreSQL through a pool whose waits are all bounded (postgres-pool.ts). */
export const connectPostgres = (
  url: string,
  settings: PoolSettings = defaultPoolSettings,
): Database => {
  const pool = createPostgresPool(url, settings);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    sqlClient: pool,
    // Migrations may run long: on a connection of their own, without the statement timeout.
    async migrate() {
      const client = new pg.Client({ connectionString: url, application_name: 'chorus' });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder });
      } finally {
        await client.end();
      }
      await ensureVectorStore(db);
    },
    close: () => pool.end(),
    listen: (channel, onPayload, onFeed = () => undefined) =>
      listenPostgres(url, channel, onPayload, onFeed, { connectMs: settings.connectTimeoutMs }),
  };
};

/**
 * PGlite in `dataDir` (in memory when undefined). `loadDataDir`, a tarball from `dumpDataDir`,
 * starts it from a copy of another database instead of an empty one, and `wasmModule`, PGlite's
 * own `pglite.wasm` compiled once, saves compiling it again: tests open many databases this way.
 */
export const openPglite = (
  dataDir: string | undefined,
  opts: { loadDataDir?: Blob; wasmModule?: PGliteOptions['pgliteWasmModule'] } = {},
): Database => {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // One options object: PGlite reads the second argument only when the first is a string.
  const client = new PGlite({
    ...(dataDir && { dataDir }),
    ...(opts.loadDataDir && { loadDataDir: opts.loadDataDir }),
    ...(opts.wasmModule && { pgliteWasmModule: opts.wasmModule }),
    // pgvector, for the knowledge base's vector search (knowledge/vector-store.ts).
    extensions: { vector },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    // PGlite returns int8 as bigint; the limiter does arithmetic with plain numbers.
    sqlClient: {
      async query({ text, values }) {
        const result = await client.query<Record<string, unknown>>(text, values);
        return {
          rows: result.rows.map((row) =>
            Object.fromEntries(
              Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]),
            ),
          ),
        };
      },
    },
    async migrate() {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
      await ensureVectorStore(db);
    },
    close: () => client.close(),
    async listen(channel, onPayload, onFeed) {
      // In the same process as every writer: the feed cannot drop.
      const unlisten = await client.listen(channel, onPayload);
      onFeed?.('up');
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
};

/** Retries of LISTEN start quickly and back off to this; they never stop. */
const LISTEN_RETRY_MAX_MS = 10_000;
/** A silent link is found by asking: a LISTEN connection says nothing when nothing happens. */
const LISTEN_PING_MS = 5_000;

/**
 * A dedicated connection for LISTEN (a pooled one would be handed to other queries). When it
 * cannot connect, drops, or stops answering its ping, it connects and listens again, with
 * backoff, for as long as it is subscribed, so notifications resume after any outage.
 */
const listenPostgres = async (
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
  onFeed: (state: FeedState) => void,
  timeouts: { connectMs: number },
): Promise<() => Promise<void>> => {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;
  let failures = 0;
  let state: FeedState | undefined;
  const report = (next: FeedState) => {
    if (state !== next) onFeed(next);
    state = next;
  };
  const again = () => {
    if (stopped) return;
    report('down');
    const wait = Math.min(LISTEN_RETRY_MAX_MS, 250 * 2 ** failures++);
    retry = setTimeout(() => void connect(), wait / 2 + Math.random() * (wait / 2));
  };
  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = undefined;
    clearInterval(ping);
    // A stalled socket would not end on its own.
    (
      c as unknown as { connection?: { stream?: { destroy(): void } } }
    ).connection?.stream?.destroy();
    void c.end().catch(() => undefined);
    again();
  };
  // Its waits count responsive time (responsive-timeout.ts): a busy or paused process does not
  // drop a feed whose answers are waiting to be read.
  const silent = () => new Error('The database did not answer in time.');
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, keepAlive: true });
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    const cut = () =>
      (
        c as unknown as { connection?: { stream?: { destroy(): void } } }
      ).connection?.stream?.destroy();
    try {
      await withinResponsive(
        (async () => {
          await c.connect();
          await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        })(),
        timeouts.connectMs,
        silent,
        cut,
      );
    } catch {
      void c.end().catch(() => undefined);
      again();
      return;
    }
    if (stopped) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    failures = 0;
    ping = setInterval(() => {
      withinResponsive(c.query('select 1'), timeouts.connectMs, silent).catch(() => drop(c));
    }, LISTEN_PING_MS);
    ping.unref();
    report('up');
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(ping);
    const c = client;
    client = undefined;
    await c?.end().catch(() => undefined);
  };
};

/** `DATABASE_URL` set → PostgreSQL; otherwise the embedded PGlite in `DATA_DIR/db`. */
export const openDatabase = (opts: {
  databaseUrl: string | undefined;
  dataDir: string;
  pool?: PoolSettings;
}) =>
  opts.databaseUrl
    ? connectPostgres(opts.databaseUrl, opts.pool)
    : openPglite(path.join(opts.dataDir, 'db'));
