import { eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { serverInstances } from '../schema/index.ts';

/**
 * Claims or renews `id`'s lease until `leaseMs` from now (database clock). An upsert: a row the
 * sweeper removed while this instance was cut off from the database comes back with the lease.
 */
export const renewLease = async (db: Db, id: string, leaseMs: number): Promise<void> => {
  const expires = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
  await db
    .insert(serverInstances)
    .values({ id, lease_expires_at: expires })
    .onConflictDoUpdate({
      target: serverInstances.id,
      set: { heartbeat_at: sql`now()`, lease_expires_at: expires },
    });
};

/** An instance that stops cleanly gives its lease up: nothing of it is left to recover. */
export const releaseLease = async (db: Db, id: string): Promise<void> => {
  await db.delete(serverInstances).where(eq(serverInstances.id, id));
};

/** Rows of instances whose lease ran out a day ago: long gone, kept a while for diagnosis. */
export const pruneGoneInstances = async (db: Db): Promise<number> => {
  const rows = await db
    .delete(serverInstances)
    .where(lt(serverInstances.lease_expires_at, sql`now() - interval '1 day'`))
    .returning({ id: serverInstances.id });
  return rows.length;
};
