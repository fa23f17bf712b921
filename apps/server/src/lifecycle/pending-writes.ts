import { isDatabaseUnavailable } from '../db/database-errors.ts';
import type { Logger } from '../logger.ts';

/** The first retry comes quickly (a blip); then each wait doubles, up to this. */
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 5_000;

export type PendingWrites = {
  /**
   * Runs `write` until it succeeds, retrying with backoff for as long as the database is
   * unreachable (any other failure is logged and not retried). Resolves true once written, false
   * when it failed for good or the process gave up on it (`giveUp`).
   */
  run(what: string, write: () => Promise<unknown>): Promise<boolean>;
  /** Writes still waiting for the database. */
  readonly size: number;
  /** Resolves once nothing is pending, or after `ms`; true when nothing is left. */
  drain(ms: number): Promise<boolean>;
  /** For a process that must stop: every pending write resolves false at once. */
  giveUp(): void;
};

/**
 * Writes that must not be lost to a database outage: a reply's final save and its usage row
 * (issue 13). They live in memory only, so a stopping process waits for them (main.ts) and tells
 * the clients still connected about the ones it had to give up.
 */
export const createPendingWrites = (log: Logger): PendingWrites => {
  const pending = new Set<Promise<boolean>>();
  let givingUp = false;
  /** Wakes every write waiting for its next attempt, or for its end, when the process gives up. */
  const wakers = new Set<() => void>();
  const wake = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });

  const attempt = async (what: string, write: () => Promise<unknown>) => {
    for (let retry = 0; ; retry++) {
      try {
        await write();
        if (retry > 0) log.info({ what, retries: retry }, 'saved once the database was back');
        return true;
      } catch (err) {
        if (!isDatabaseUnavailable(err)) {
          log.error({ err, what }, 'saving failed');
          return false;
        }
        if (retry === 0) log.warn({ err, what }, 'database unavailable; retrying the save');
      }
      if (givingUp) break;
      const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** retry);
      // Jitter, so writes held up together do not all come back at the same instant.
      await wake(wait / 2 + Math.random() * (wait / 2));
      if (givingUp) break;
    }
    log.error({ what }, 'gave up saving: the process is stopping and the database is unavailable');
    return false;
  };

  return {
    run(what, write) {
      const running = (async () => {
        const written = attempt(what, write);
        // Giving up does not wait for an attempt that hangs on a stalled link.
        let stopWaiting!: () => void;
        const givenUp = new Promise<false>((resolve) => {
          stopWaiting = () => {
            wakers.delete(stopWaiting);
            resolve(false);
          };
          wakers.add(stopWaiting);
        });
        try {
          return givingUp ? false : await Promise.race([written, givenUp]);
        } finally {
          wakers.delete(stopWaiting);
        }
      })().finally(() => pending.delete(running));
      pending.add(running);
      return running;
    },
    get size() {
      return pending.size;
    },
    async drain(ms) {
      const deadline = Date.now() + ms;
      while (pending.size > 0 && Date.now() < deadline) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...pending]),
          new Promise((resolve) => (timer = setTimeout(resolve, deadline - Date.now()))),
        ]);
        clearTimeout(timer);
      }
      return pending.size === 0;
    },
    giveUp() {
      givingUp = true;
      for (const waker of [...wakers]) waker();
    },
  };
};

/**
 * How long an answer waits for its own save before it ends anyway (the save goes on): long enough
 * that a client reading right after the answer finds it stored, short enough that a database
 * outage never holds a finished answer open.
 */
export const SAVE_WAIT_MS = 1_000;

/** `promise`'s value, or undefined once `ms` have passed first. */
export const settledWithin = async <T>(promise: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
};
