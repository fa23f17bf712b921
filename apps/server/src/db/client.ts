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
  };
};

/** `DATABASE_URL` set → PostgreSQL; otherwise the embedded PGlite in `DATA_DIR/db`. */
export const openDatabase = (opts: { databaseUrl: string | undefined; dataDir: string }) =>
  opts.databaseUrl ? connectPostgres(opts.databaseUrl) : openPglite(path.join(opts.dataDir, 'db'));
