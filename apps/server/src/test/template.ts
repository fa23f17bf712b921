import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import pg from 'pg';
import { connectPostgres, migrationsFolder, openPglite, type Database } from '../db/client.ts';
import { vectorStoreDdl } from '../db/vector-store.ts';
import { createJobQueue } from '../jobs/queue.ts';
import { createLogger } from '../logger.ts';

/**
 * Migrated, empty template databases that every test database is cloned from (ADR 012):
 * migrating takes seconds per database, cloning a fraction of that. A template is named by a
 * digest of the migrations, so a changed or added migration builds a new one on the next run and
 * an unchanged one is reused across runs (and across checkouts on the same machine).
 *
 * Building is safe to race: a template is built under a name of its own and moved into place in
 * one step (a file rename, a database rename); whoever loses the race throws its copy away.
 */

/** Bump when the way a template is built changes, so old templates are not reused. */
const TEMPLATE_FORMAT = 1;

const require = createRequire(import.meta.url);
/** The folder of an installed package's entry point, and its version. */
const installed = (name: string) => {
  const entryDir = path.dirname(require.resolve(name));
  let dir = entryDir;
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return { entryDir, version };
};
const pglite = installed('@electric-sql/pglite');
/** pg-boss's schema is part of a template (see buildTemplate). */
const pgBossVersion = installed('pg-boss').version;

export type PgliteWasm = NonNullable<PGliteOptions['pgliteWasmModule']>;
// Node's global; the project's `lib` (ES2023, no DOM) does not describe it.
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<PgliteWasm> };

/** PGlite's WebAssembly, compiled once per process instead of once per database. */
export const compilePgliteWasm = (): Promise<PgliteWasm> =>
  WebAssembly.compile(readFileSync(path.join(pglite.entryDir, 'pglite.wasm')));

/**
 * What a template holds: our migrations, and pg-boss's own schema (created by its first start,
 * a few seconds on PGlite), so a test that starts the job queue finds it in place.
 */
const buildTemplate = async (database: Database) => {
  await database.migrate();
  const jobs = createJobQueue({ database, log: createLogger('silent') });
  await jobs.start([], null);
  await jobs.stop();
};

/**
 * A digest of the migration SQL and the journal (the snapshots do not change the database) and
 * of pg-boss's version.
 */
export const migrationsDigest = (): string => {
  const hash = createHash('sha256')
    .update(`format ${TEMPLATE_FORMAT} pg-boss ${pgBossVersion}\0`)
    .update(`${vectorStoreDdl.join(';')}\0`);
  const files = readdirSync(migrationsFolder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .concat('meta/_journal.json');
  for (const name of files) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(path.join(migrationsFolder, name)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
};

// ─── PGlite: a tarball of a migrated data directory ───────────────────────────────────────────

const pgliteTemplateDir = path.join(tmpdir(), 'chorus-test-templates');
const weekMs = 7 * 24 * 60 * 60 * 1000;

/**
 * The path of a tarball of a migrated PGlite data directory (`dumpDataDir`), built when missing.
 * Templates of other migrations that nobody has used for a week are removed.
 */
export const ensurePgliteTemplate = async (): Promise<string> => {
  const file = path.join(pgliteTemplateDir, `pglite-${pglite.version}-${migrationsDigest()}.tar`);
  if (existsSync(file)) {
    // Marks it as in use for the pruning below.
    const now = new Date();
    utimesSync(file, now, now);
    return file;
  }
  mkdirSync(pgliteTemplateDir, { recursive: true });
  const database = openPglite(undefined);
  try {
    await buildTemplate(database);
    // drizzle keeps the driver's client on `$client` (as in jobs/queue.ts).
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const tarball = await client.dumpDataDir('none');
    const building = `${file}.${process.pid}-${randomUUID()}.part`;
    writeFileSync(building, new Uint8Array(await tarball.arrayBuffer()));
    // Atomic: a parallel build of the same template either wins or is replaced by an equal file.
    renameSync(building, file);
  } finally {
    await database.close();
  }
  for (const name of readdirSync(pgliteTemplateDir)) {
    const other = path.join(pgliteTemplateDir, name);
    if (other === file) continue;
    try {
      if (Date.now() - statSync(other).mtimeMs > weekMs) rmSync(other, { force: true });
    } catch {
      // removed by a parallel run
    }
  }
  return file;
};

/**
 * Fills `DATA_DIR/db` of a server about to start with a copy of the template (the tarball is a
 * data directory), so the server finds its database migrated instead of running initdb and every
 * migration. For servers in child processes: e2e and crash tests.
 */
export const seedPgliteDataDir = async (dataDir: string): Promise<void> => {
  const tarball = await ensurePgliteTemplate();
  const db = path.join(dataDir, 'db');
  mkdirSync(db, { recursive: true });
  execFileSync('tar', ['-xf', tarball, '-C', db], { stdio: ['ignore', 'ignore', 'pipe'] });
};

// ─── PostgreSQL: a database to use as CREATE DATABASE … TEMPLATE ─────────────────────────────

export const postgresAdminUrl = (): string =>
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The admin URL pointed at another database on the same server. */
export const postgresUrlOf = (database: string): string => {
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${database}`;
  return url.toString();
};

export const withPostgresAdmin = async <T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> => {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
};

const duplicateDatabase = '42P04';

/**
 * The name of a migrated template database on the test PostgreSQL server, built when missing.
 * It accepts no connections, so nothing can hold it open while a test database is cloned from it.
 */
export const ensurePostgresTemplate = async (): Promise<string> => {
  const name = `chorus_template_${migrationsDigest()}`;
  return withPostgresAdmin(async (admin) => {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return name;

    const building = `${name}_${randomUUID().replaceAll('-', '').slice(0, 8)}`;
    await admin.query(`CREATE DATABASE ${building}`);
    try {
      const database = connectPostgres(postgresUrlOf(building));
      try {
        await buildTemplate(database);
      } finally {
        await database.close();
      }
      await admin.query(`ALTER DATABASE ${building} WITH ALLOW_CONNECTIONS false`);
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    } catch (error) {
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      // Another run built the same template first: use theirs.
      if ((error as { code?: string }).code === duplicateDatabase) return name;
      throw error;
    }
    return name;
  });
};
