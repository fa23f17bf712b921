import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.ts';

// A PostgreSQL cluster of a fault test's own, on a free loopback port in a temporary directory,
// that the test may stop, kill and start again without disturbing the suite's shared server.
// Binaries are found as scripts/lib/postgres.mjs finds them; as root, the cluster runs as the
// postgres user (PostgreSQL refuses to run as root).

/** The directory holding initdb and pg_ctl: Debian's newest version first, then PATH. */
export const findPostgresBin = (): string | null => {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')))
      return dir;
  }
  return null;
};

const isRoot = () => process.getuid?.() === 0;

const idOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'postgres']).toString());

const run = promisify(execFile);

/**
 * Runs a PostgreSQL tool as the postgres user when we are root, as ourselves otherwise. Without
 * blocking: the server under test keeps serving while its database stops and starts.
 */
const runTool = async (bin: string, tool: string, args: string[]) => {
  const command = path.join(bin, tool);
  const [file, argv] = isRoot()
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  await run(file, argv, { timeout: 60_000 });
};

export type PrivatePostgres = {
  /** `postgres://postgres@127.0.0.1:PORT/postgres`. */
  url: string;
  port: number;
  /** Shuts the server down (`fast`: disconnects everyone; `immediate`: as a crash would). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
  /** The server's log, for a failing test's message. */
  log(): string;
};

/**
 * initdb + pg_ctl start on a free port (about two seconds). Null when no PostgreSQL binaries are
 * installed, or when we are root and there is no postgres user to run them as.
 */
export const startPrivatePostgres = async (): Promise<PrivatePostgres | null> => {
  const bin = findPostgresBin();
  if (!bin) return null;
  if (isRoot()) {
    try {
      idOf('-u');
    } catch {
      return null;
    }
  }
  const base = mkdtempSync(path.join(tmpdir(), 'chorus-private-pg-'));
  if (isRoot()) chownSync(base, idOf('-u'), idOf('-g'));
  const dataDir = path.join(base, 'data');
  const logFile = path.join(base, 'postgres.log');
  const port = await freePort();
  await runTool(bin, 'initdb', [
    '-D',
    dataDir,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const start = () =>
    runTool(bin, 'pg_ctl', [
      '-D',
      dataDir,
      '-o',
      `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      '-l',
      logFile,
      '-w',
      '-t',
      '30',
      'start',
    ]);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    runTool(bin, 'pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '30', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async destroy() {
      await stop('immediate').catch(() => undefined);
      rmSync(base, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : ''),
  };
};
