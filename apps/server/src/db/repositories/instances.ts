import { and, eq, lt, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { serverInstances } from '../schema/index.ts';

/**
 * Claims or renews `id`'s lease until `leaseMs` from now (database clock). An upsert: a row the
 * sweeper removed while this instance was cut off from the database comes back with the lease.
 * `lapsed`: the lease had run out (or its row was gone) before this renewal, so other instances
 * may have taken this one's runs for abandoned.
 */
export const renewLease = async (
  db: Db,
  id: string,
  leaseMs: number,
): Promise<{ lapsed: boolean }> => {
  const expires = sql`now() + make_interval(secs => ${leaseMs / 1000})`;
  // The sub-select reads the row as it was before this statement (one snapshot).
  const [row] = await db
    .insert(serverInstances)
    .values({ id, lease_expires_at: expires })
    .onConflictDoUpdate({
      target: serverInstances.id,
      set: { heartbeat_at: sql`now()`, lease_expires_at: expires },
    })
    .returning({
      lapsed: sql<boolean>`not exists (
        select 1 from ${serverInstances} before
        where before.id = ${id}::uuid and before.lease_expires_at > now()
      )`,
    });
  return { lapsed: row?.lapsed === true };
};

/** An instance that stops cleanly gives its lease up: what it still owned is swept at once. */
export const releaseLease = async (db: Db, id: string): Promise<void> => {
  await db.delete(serverInstances).where(eq(serverInstances.id, id));
};

/**
 * Every lease but `id`'s ends now. For the embedded database at start: its data directory
 * belongs to one process, so any other instance recorded there has died, however recent its
 * last heartbeat.
 */
export const endOtherLeases = async (db: Db, id: string): Promise<void> => {
  await db
    .update(serverInstances)
    .set({ lease_expires_at: sql`now()` })
    .where(and(ne(serverInstances.id, id), sql`${serverInstances.lease_expires_at} > now()`));
};

/** Rows of instances whose lease ran out a day ago: long gone, kept a while for diagnosis. */
export const pruneGoneInstances = async (db: Db): Promise<number> => {
  const rows = await db
    .delete(serverInstances)
    .where(lt(serverInstances.lease_expires_at, sql`now() - interval '1 day'`))
    .returning({ id: serverInstances.id });
  return rows.length;
};

/**
 * True when the instance in `owner` holds a live lease. A null owner, an instance whose lease ran
 * out, and one whose row is gone all count as not alive.
 */
export const ownerAlive = (owner: AnyColumn | SQL): SQL => sql`exists (
  select 1 from ${serverInstances} i where i.id = ${owner} and i.lease_expires_at > now()
)`;

/** The opposite of `ownerAlive`: the run's instance is gone (or it never had one). */
export const ownerGone = (owner: AnyColumn | SQL): SQL => sql`not ${ownerAlive(owner)}`;
