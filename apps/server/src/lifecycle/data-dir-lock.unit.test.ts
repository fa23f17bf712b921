import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../test/streams.ts';
import {
  DataDirLockedError,
  LOCK_FILE,
  lockDataDir,
  STALE_MS,
  type DataDirLock,
  type LockOwner,
} from './data-dir-lock.ts';

const dirs: string[] = [];
const locks: DataDirLock[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'chorus-lock-'));
  dirs.push(dir);
  return dir;
};
const lock = (
  dir: string,
  onLost: (why: string) => void = () => undefined,
  heartbeatMs?: number,
) => {
  const taken = lockDataDir(dir, { onLost, ...(heartbeatMs && { heartbeatMs }) });
  locks.push(taken);
  return taken;
};
const ownerIn = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as LockOwner;
/** Leaves a lock as another process would have, with `changes` to this process's own record. */
const plant = (dir: string, changes: Partial<LockOwner>) => {
  const mine = lock(freshDir()).owner;
  writeFileSync(
    path.join(dir, LOCK_FILE),
    JSON.stringify({ ...mine, token: 'planted', ...changes }),
  );
};
/** The id of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

afterEach(() => {
  for (const l of locks.splice(0)) l.release();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('takes a free directory, refuses a second owner by name, and frees it on release', () => {
    const dir = freshDir();
    const first = lock(dir);
    expect(ownerIn(dir)).toMatchObject({ pid: process.pid, token: first.owner.token });

    let refusal: unknown;
    try {
      lock(dir);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toContain(
      `in use by another Chorus process (PID ${process.pid}`,
    );
    expect((refusal as Error).message).toContain('give this one its own DATA_DIR');
    // The refused attempt left the owner's lock as it was, and no draft behind.
    expect(ownerIn(dir).token).toBe(first.owner.token);
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);

    first.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(lock(dir).owner.pid).toBe(process.pid);
  });

  it('takes over at once from a process of this machine that has exited', () => {
    const dir = freshDir();
    plant(dir, { pid: deadPid() });
    const taken = lock(dir);
    expect(ownerIn(dir).token).toBe(taken.owner.token);
  });

  it('takes over from a live process id that now names another process', () => {
    const dir = freshDir();
    plant(dir, { processStart: 'started-before-the-id-was-reused' });
    expect(ownerIn(dir).token).toBe('planted');
    const taken = lock(dir);
    expect(ownerIn(dir).token).toBe(taken.owner.token);
  });

  it('judges an owner on another machine by its heartbeat', () => {
    const dir = freshDir();
    plant(dir, { machine: 'elsewhere', hostname: 'other-host', pid: 4242 });
    expect(() => lock(dir)).toThrow(/PID 4242 on other-host/);

    const longAgo = new Date(Date.now() - STALE_MS - 5_000);
    utimesSync(path.join(dir, LOCK_FILE), longAgo, longAgo);
    expect(ownerIn(dir).token).toBe('planted');
    const taken = lock(dir);
    expect(ownerIn(dir).token).toBe(taken.owner.token);
  });

  it('tells its owner when another process took the lock, and takes it back when it was only deleted', async () => {
    const dir = freshDir();
    const lost: string[] = [];
    lock(dir, (why) => lost.push(why), 50);
    rmSync(path.join(dir, LOCK_FILE));
    await waitFor(() => existsSync(path.join(dir, LOCK_FILE)));
    expect(ownerIn(dir).pid).toBe(process.pid);
    expect(lost).toEqual([]);

    writeFileSync(
      path.join(dir, LOCK_FILE),
      JSON.stringify({ ...ownerIn(dir), pid: 4343, hostname: 'usurper', token: 'theirs' }),
    );
    await waitFor(() => lost.length > 0);
    expect(lost).toEqual([`PID 4343 on usurper took DATA_DIR ${dir} over`]);
  });
});
