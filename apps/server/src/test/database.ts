import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { connectPostgres, openPglite, type Database } from '../db/client.ts';

export const testDriver = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

const adminUrl = () =>
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A migrated, empty database of its own for one test file: in-memory PGlite, or a fresh database
 * on the real PostgreSQL that is dropped again on close.
 */
export const openTestDatabase = async (): Promise<Database> => {
  if (testDriver() === 'pglite') {
    const database = openPglite(undefined);
    await database.migrate();
    return database;
  }
  const fresh = await createPostgresDatabaseUrl();
  const database = connectPostgres(fresh.url);
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
};

/** A fresh, empty PostgreSQL database (for a test file, or a server in a child process). */
export const createPostgresDatabaseUrl = async (): Promise<{
  url: string;
  drop(): Promise<void>;
}> => {
  const name = `chorus_test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl() });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
};
