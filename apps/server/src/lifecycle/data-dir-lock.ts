import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

// One process owns an embedded data directory: two PGlite instances on one directory each keep
// their own copy of the database in memory and overwrite each other's writes on disk.
//
// Why a lock file of our own and not a lock library: Node has no flock(), and the lock libraries
// that need no native build (proper-lockfile, lockfile) find a dead owner only by a lock that
// has not been touched for a while. A restart right after a crash (kill -9, the OOM killer) would
// then be refused for that while, and an owner that was merely paused or busy past it would be
// taken for dead, which is the very confusion the server must not make. Here a dead owner on the
// same machine is found at once from its process id (and that process's start time, so a reused
// id is not mistaken for it); only an owner on another machine or container, whose process
// cannot be looked at, is judged by its heartbeat, and that after a generous delay.

/** The lock's file, in the data directory it guards. */
export const LOCK_FILE = 'chorus.lock';
/** How often an owner touches its lock and checks that the lock is still its own. */
export const HEARTBEAT_MS = 5_000;
/** An owner that cannot be looked at is taken for gone once its lock is this much older. */
export const STALE_MS = 60_000;

/** What the lock file says about its owner. */
export type LockOwner = {
  pid: number;
  /** Host name, boot and PID namespace: where `pid` means something. */
  machine: string;
  hostname: string;
  /** The owner process's start, in clock ticks after boot (Linux); null elsewhere. */
  processStart: string | null;
  startedAt: string;
  token: string;
};

/** Another process owns the data directory. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner | null,
  ) {
    const who = owner
      ? `another Chorus process (PID ${owner.pid} on ${owner.hostname}, started ${owner.startedAt})`
      : 'another Chorus process, which is taking it right now';
    super(
      `DATA_DIR ${dataDir} is in use by ${who}. Two processes on one embedded database lose each other's data: stop the other process first, or give this one its own DATA_DIR (or a DATABASE_URL). If that process is gone for good, delete ${path.join(dataDir, LOCK_FILE)}.`,
    );
  }
}

const readIfExists = (file: string) => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
};

/** The start time of process `pid` in clock ticks after boot: field 22 of /proc/PID/stat. */
const processStartOf = (pid: number): string | null => {
  const stat = readIfExists(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
};

/** Where a process id names the same process: one host, one boot, one PID namespace. */
const thisMachine = () => {
  let pidNamespace = '';
  try {
    pidNamespace = readlinkSync('/proc/self/ns/pid');
  } catch {
    // Not Linux: the host name and boot stand for it.
  }
  return [hostname(), readIfExists('/proc/sys/kernel/random/boot_id'), pidNamespace].join('|');
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const readOwner = (file: string): LockOwner | null => {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.token === 'string'
      ? (owner as LockOwner)
      : null;
  } catch {
    return null;
  }
};

/** Whether the lock at `file`, held by `owner`, belongs to a process that no longer runs. */
const ownerIsGone = (file: string, owner: LockOwner | null, machine: string) => {
  if (owner && owner.machine === machine) {
    if (!isAlive(owner.pid)) return true;
    const start = processStartOf(owner.pid);
    return owner.processStart !== null && start !== null && start !== owner.processStart;
  }
  // A half-written or foreign lock: judged by its heartbeat.
  try {
    return Date.now() - statSync(file).mtimeMs > STALE_MS;
  } catch {
    return true;
  }
};

export type DataDirLock = {
  readonly owner: LockOwner;
  /** Stops the heartbeat and removes the lock, if it is still this process's. */
  release(): void;
};

/**
 * Takes `dataDir` for this process, or throws DataDirLockedError when a live process has it.
 * Synchronous and first: nothing else in the directory is read or written before it.
 *
 * While held, a heartbeat touches the lock every HEARTBEAT_MS and checks that it still names this
 * process; `onLost` hears it when it does not (someone deleted it and another process took it),
 * and the caller must stop writing at once.
 */
export const lockDataDir = (
  dataDir: string,
  opts: { onLost: (why: string) => void; heartbeatMs?: number },
): DataDirLock => {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const machine = thisMachine();
  const owner: LockOwner = {
    pid: process.pid,
    machine,
    hostname: hostname(),
    processStart: processStartOf(process.pid),
    startedAt: new Date().toISOString(),
    token: randomUUID(),
  };

  // Written whole beside the lock, then linked to its name: link() fails if the name exists, so
  // taking the lock is atomic and nobody ever reads half an owner. Undefined when taken, else who
  // holds it (null: unreadable).
  const take = (): LockOwner | null | undefined => {
    const draft = `${file}.${owner.token}`;
    const fd = openSync(draft, 'w', 0o644);
    try {
      writeSync(fd, JSON.stringify(owner));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(draft, file);
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return readOwner(file);
    } finally {
      unlinkSync(draft);
    }
  };

  const holder = take();
  if (holder !== undefined) {
    if (!ownerIsGone(file, holder, machine)) throw new DataDirLockedError(dataDir, holder);
    // Removed only if it is still the lock judged gone a moment ago, not a newcomer's.
    if (readOwner(file)?.token === holder?.token) {
      try {
        unlinkSync(file);
      } catch {
        // Someone else removed it first; taking it tells who won.
      }
    }
    const winner = take();
    if (winner !== undefined) throw new DataDirLockedError(dataDir, winner);
  }

  let released = false;
  const heartbeat = setInterval(() => {
    let now = readOwner(file);
    // Deleted by hand while we run: taken again, unless someone else was quicker.
    if (now === null && !existsSync(file)) {
      try {
        now = take() ?? owner;
      } catch {
        return; // tried again at the next beat
      }
    }
    if (now?.token !== owner.token) {
      clearInterval(heartbeat);
      released = true;
      opts.onLost(
        now
          ? `PID ${now.pid} on ${now.hostname} took DATA_DIR ${dataDir} over`
          : `the lock file ${file} is no longer this process's`,
      );
      return;
    }
    try {
      const at = new Date();
      utimesSync(file, at, at);
    } catch {
      // Read just now; a failed touch is tried again at the next beat.
    }
  }, opts.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  return {
    owner,
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      if (readOwner(file)?.token === owner.token) {
        try {
          unlinkSync(file);
        } catch {
          // Gone already.
        }
      }
    },
  };
};
