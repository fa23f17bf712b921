import { existsSync, mkdtempSync, readdirSync, chownSync, rmSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall } from './apt.mjs';
import { capture, hasCommand, isRoot, run, sleep } from './proc.mjs';

export const postgresHost = '127.0.0.1';
export const postgresPort = 5432;
export const postgresAdminUrl = `postgres://postgres@${postgresHost}:${postgresPort}/postgres`;

/** True when something accepts TCP connections on the PostgreSQL port. */
const portAnswers = (timeoutMs = 1000) =>
  new Promise((resolve) => {
    const socket = connect({ host: postgresHost, port: postgresPort });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });

/** True when PostgreSQL on 127.0.0.1:5432 accepts connections (pg_isready when present). */
export const postgresIsReady = async () => {
  if (hasCommand('pg_isready')) {
    return capture('pg_isready', ['-q', '-h', postgresHost, '-p', String(postgresPort), '-t', '2'])
      .ok;
  }
  return portAnswers();
};

const waitUntilReady = async (seconds) => {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await postgresIsReady()) return true;
    await sleep(500);
  }
  return false;
};

/** The directory holding initdb and pg_ctl: Debian's newest version first, then PATH. */
const findPostgresBin = () => {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  const found = capture('sh', ['-c', 'command -v initdb']);
  if (found.ok) {
    const dir = found.stdout.trim().replace(/\/initdb$/, '');
    if (existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return null;
};

const userId = (name) => {
  const result = capture('id', ['-u', name]);
  return result.ok ? Number(result.stdout.trim()) : null;
};

/** Runs a command as the postgres user when we are root, or as ourselves otherwise. */
const runAsPostgres = (command, args, options) => {
  if (!isRoot()) return run(command, args, options);
  if (hasCommand('runuser'))
    return run('runuser', ['-u', 'postgres', '--', command, ...args], options);
  const quoted = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  return run('su', ['postgres', '-s', '/bin/sh', '-c', quoted], options);
};

/**
 * Makes a PostgreSQL answer on 127.0.0.1:5432: uses a running one, or (installs and) starts a
 * throwaway cluster in a temporary directory. Resolves to
 * `{ ok: true, stop }` or `{ ok: false, reason }`.
 */
export const ensurePostgres = async () => {
  const noop = async () => {};
  if (await postgresIsReady()) return { ok: true, stop: noop, how: 'already running' };

  let bin = findPostgresBin();
  if (!bin) {
    if (!isRoot()) {
      return {
        ok: false,
        reason: `nothing answers on ${postgresHost}:${postgresPort}, PostgreSQL is not installed and we are not root (cannot apt-get install postgresql)`,
      };
    }
    console.log('PostgreSQL is not installed; installing it with apt-get.');
    if (!(await aptInstall(['postgresql']))) {
      return { ok: false, reason: 'apt-get install postgresql failed' };
    }
    // Debian's package may have started its own cluster on 5432; use it if so.
    if (await waitUntilReady(5)) return { ok: true, stop: noop, how: 'installed by apt-get' };
    bin = findPostgresBin();
    if (!bin) return { ok: false, reason: 'initdb not found after installing postgresql' };
  }

  if (isRoot() && userId('postgres') === null) {
    const added = await run('useradd', ['--system', '--no-create-home', 'postgres']);
    if (added !== 0) return { ok: false, reason: 'cannot create the postgres system user' };
  }

  const base = mkdtempSync(join(tmpdir(), 'chorus-pg-'));
  const dataDir = join(base, 'data');
  const logFile = join(base, 'postgres.log');
  if (isRoot()) {
    const uid = userId('postgres');
    const gid = Number(capture('id', ['-g', 'postgres']).stdout.trim());
    chownSync(base, uid, gid);
  }
  console.log(`Starting a temporary PostgreSQL from ${bin} in ${dataDir}`);
  const initdb = await runAsPostgres(
    join(bin, 'initdb'),
    ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
    { timeoutSeconds: 120 },
  );
  if (initdb !== 0) {
    rmSync(base, { recursive: true, force: true });
    return { ok: false, reason: `initdb failed (exit ${initdb})` };
  }
  const pgCtl = join(bin, 'pg_ctl');
  const started = await runAsPostgres(
    pgCtl,
    [
      '-D',
      dataDir,
      '-o',
      `-p ${postgresPort} -k /tmp -c listen_addresses=${postgresHost} -c fsync=off`,
      '-l',
      logFile,
      '-w',
      '-t',
      '60',
      'start',
    ],
    { timeoutSeconds: 90 },
  );
  const stop = async () => {
    console.log('Stopping the temporary PostgreSQL');
    await runAsPostgres(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop'], {
      timeoutSeconds: 60,
    });
    rmSync(base, { recursive: true, force: true });
  };
  if (started !== 0 || !(await waitUntilReady(60))) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '(no log)';
    console.error(`PostgreSQL did not start; its log:\n${log}`);
    await stop();
    return { ok: false, reason: `pg_ctl start failed (exit ${started})` };
  }
  return { ok: true, stop, how: 'temporary cluster' };
};
