import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import type { Db } from './client.ts';
import { releaseLease, renewLease } from './repositories/instances.ts';

export type InstanceLease = {
  /** This process's id; the replies it streams are stamped with it. */
  readonly id: string;
  /** Claims the lease and renews it a few times per lease period until `stop`. */
  start(): Promise<void>;
  /** Stops renewing and gives the lease up (best effort: an expired lease says the same). */
  stop(): Promise<void>;
};

/**
 * The lease that tells other instances this one is alive (ADR 015). It is renewed three times per
 * period, so two missed heartbeats (a database blip) do not let it lapse. While the database is
 * away a failed renewal is logged once; the next one that lands restores the lease.
 */
export const createInstanceLease = (opts: {
  db: Db;
  leaseMs: number;
  log: Logger;
}): InstanceLease => {
  const id = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  const renew = async () => {
    try {
      await renewLease(opts.db, id, opts.leaseMs);
      if (failing) opts.log.info({ instance: id }, 'instance lease renewed again');
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
        timer = setTimeout(() => void renew().finally(() => timer && beat()), opts.leaseMs / 3);
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
