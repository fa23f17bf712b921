import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connectPostgres, openPglite, type Database } from '../db/client.ts';
import { defaultPoolSettings, type PoolSettings } from '../db/postgres-pool.ts';
import {
  compilePgliteWasm,
  ensurePgliteTemplate,
  ensurePostgresTemplate,
  postgresUrlOf,
  type PgliteWasm,
  withPostgresAdmin,
} from './template.ts';

export const testDriver = (): 'pglite' | 'postgres' =>
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

// The integration project's global setup has built the templates before any worker starts; these
// only find them (or build them when a test runs outside that project). One look per process: the
// integration project does not isolate test files, so a worker's files share them.
let pgliteTemplate: Promise<Blob> | undefined;
let pgliteWasm: Promise<PgliteWasm> | undefined;
let postgresTemplate: Promise<string> | undefined;

/**
 * A migrated, empty database of its own for one test file: in-memory PGlite loaded from the
 * migrated template's tarball, or a clone of the template database on the real PostgreSQL that
 * is dropped again on close.
 */
export const openTestDatabase = async (
  /** PostgreSQL pool settings, for tests that load the pool on purpose (races of 100 requests). */
  pool?: Partial<PoolSettings>,
): Promise<Database> => {
  if (testDriver() === 'pglite') {
    // Read into memory: a file-backed Blob (fs.openAsBlob) turns unreadable once the file's
    // mtime changes, which a parallel run marking the template as used does.
    pgliteTemplate ??= ensurePgliteTemplate().then((file) => new Blob([readFileSync(file)]));
    pgliteWasm ??= compilePgliteWasm();
    return openPglite(undefined, {
      loadDataDir: await pgliteTemplate,
      wasmModule: await pgliteWasm,
    });
  }
  const fresh = await createPostgresDatabaseUrl();
  const database = connectPostgres(fresh.url, { ...defaultPoolSettings, ...pool });
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
};

/**
 * A fresh, migrated PostgreSQL database cloned from the template (for a test file, or a server in
 * a child process), and how to drop it.
 */
export const createPostgresDatabaseUrl = async (): Promise<{
  url: string;
  drop(): Promise<void>;
}> => {
  postgresTemplate ??= ensurePostgresTemplate();
  const template = await postgresTemplate;
  const name = `chorus_test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  await withPostgresAdmin((admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  return {
    url: postgresUrlOf(name),
    async drop() {
      await withPostgresAdmin((admin) =>
        admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
      );
    },
  };
};
