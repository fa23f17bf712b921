import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import type { Db } from './client.ts';
import { releaseLease, renewLease } from './repositories/instances.ts';

export type InstanceLease = {
  /** This process's id; the runs it owns (replies, workflow runs, test runs…) are stamped with it. */
  readonly id: string;
  /** Claims the lease and renews it every heartbeat until `stop`. */
  start(): Promise<void>;
  /** Stops renewing and gives the lease up (best effort: an expired lease says the same). */
  stop(): Promise<void>;
};

/**
 * The lease that tells other instances this one is alive (ADR 018). It is renewed every
 * `heartbeatMs`, at most half the lease, so one missed heartbeat (a database blip) does not let
 * it lapse. While the database is away a failed renewal is logged once; the next one that lands
 * restores the lease. A renewal that finds the lease had lapsed says so: meanwhile the sweep may
 * have ended or resumed this instance's runs elsewhere.
 */
export const createInstanceLease = (opts: {
  db: Db;
  leaseMs: number;
  heartbeatMs: number;
  log: Logger;
}): InstanceLease => {
  const id = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  const renew = async () => {
    try {
      const { lapsed } = await renewLease(opts.db, id, opts.leaseMs);
      if (lapsed) {
        opts.log.warn(
          { instance: id, leaseMs: opts.leaseMs },
          'instance lease had lapsed; other instances may have ended or resumed its runs',
        );
      } else if (failing) opts.log.info({ instance: id }, 'instance lease renewed again');
      failing = false;
    } catch (err) {
      if (!failing) opts.log.warn({ err, instance: id }, 'instance lease could not be renewed');
      failing = true;
    }
  };
  return {
    id,
    async start() {
      await renewLease(opts.db, id, opts.leaseMs);
      const beat = () => {
        timer = setTimeout(() => void renew().finally(() => timer && beat()), opts.heartbeatMs);
        timer.unref();
      };
      beat();
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await releaseLease(opts.db, id).catch(() => undefined);
    },
  };
};
