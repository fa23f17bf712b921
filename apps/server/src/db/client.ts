import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** One type for both drivers; repositories never need to know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

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
   * Resolves to an unsubscribe function.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
};

/** Migrations sit beside the sources (`apps/server/drizzle`) and beside the bundle (`dist/drizzle`). */
export const migrationsFolder = (() => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const bundled = path.join(here, 'drizzle');
  return existsSync(bundled) ? bundled : path.join(here, '..', '..', 'drizzle');
})();

export const connectPostgres = (url: string): Database => {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not take the process down.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    sqlClient: pool,
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder }),
    close: () => pool.end(),
    listen: (channel, onPayload) => listenPostgres(url, channel, onPayload),
  };
};

export const openPglite = (dataDir: string | undefined): Database => {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
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
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder }),
    close: () => client.close(),
    async listen(channel, onPayload) {
      const unlisten = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
  };
};

/**
 * A dedicated connection for LISTEN (a pooled one would be handed to other queries). If it drops
 * it reconnects after a second and listens again, so notifications resume after a database restart.
 */
const listenPostgres = async (
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<() => Promise<void>> => {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    c.on('error', () => {
      void c.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void connect().catch(() => undefined), 1_000);
    });
    await c.connect();
    await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
};

/** `DATABASE_URL` set → PostgreSQL; otherwise the embedded PGlite in `DATA_DIR/db`. */
export const openDatabase = (opts: { databaseUrl: string | undefined; dataDir: string }) =>
  opts.databaseUrl ? connectPostgres(opts.databaseUrl) : openPglite(path.join(opts.dataDir, 'db'));
