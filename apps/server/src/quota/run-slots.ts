import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client.ts';

/** A place taken in a per-user limit on work going on at once; give it back when the work ends. */
export type RunSlot = {
  /** Gives the place back (once; later calls do nothing). Never throws. */
  release(): Promise<void>;
};

/** A slot is held by a live instance and within its time: nobody else may take it. */
const held = (r: string) =>
  sql.raw(`(${r}.expires_at > now() and exists (
  select 1 from server_instances i where i.id = ${r}.instance_id and i.lease_expires_at > now()))`);

/**
 * Takes one of `limit` places of `kind` for the user, or answers null when all are held: the
 * check and the take are one statement on the `run_slots` primary key, so however many ask at
 * once, at most `limit` hold a place (docs/SECURITY.md "Budgets under races"). A place whose
 * instance's lease ran out (it stopped or crashed mid-run), or older than `ttlMs`, is taken over.
 *
 * Two requests that see the same place free both try it and one loses; the loser looks again
 * (only then is there a second round trip), so a free place is not refused for a lost race.
 */
export const takeRunSlot = async (
  db: Db,
  req: { userId: string; kind: string; limit: number; instanceId: string; ttlMs: number },
  log?: { warn(obj: object, msg: string): void },
): Promise<RunSlot | null> => {
  const holder = randomUUID();
  // Each lost race means another request took a place; after `limit` of them all are taken.
  for (let attempt = 0; attempt <= req.limit; attempt += 1) {
    const result = await db.execute(sql`
      with free as (
        select s as slot from generate_series(1, ${req.limit}::int) s
        where not exists (
          select 1 from run_slots r
          where r.user_id = ${req.userId} and r.kind = ${req.kind} and r.slot = s and ${held('r')}
        )
        order by s
        limit 1
      ),
      taken as (
        insert into run_slots as r (user_id, kind, slot, holder, instance_id, expires_at)
        select ${req.userId}, ${req.kind}, free.slot, ${holder}::uuid, ${req.instanceId}::uuid,
          now() + make_interval(secs => ${req.ttlMs / 1000})
        from free
        on conflict (user_id, kind, slot) do update set
          holder = excluded.holder,
          instance_id = excluded.instance_id,
          expires_at = excluded.expires_at
        where not ${held('r')}
        returning r.slot
      )
      select (select slot from free) as free, (select slot from taken) as taken
    `);
    const row = rowsOf<{ free: number | null; taken: number | null }>(result)[0];
    if (!row || row.free === null) return null;
    if (row.taken !== null) {
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          await db
            .execute(
              sql`delete from run_slots
                where user_id = ${req.userId} and kind = ${req.kind} and holder = ${holder}::uuid`,
            )
            .catch((err: unknown) =>
              // Left behind, the place frees itself once its time is up.
              log?.warn({ err, kind: req.kind }, 'a run slot could not be released'),
            );
        },
      };
    }
  }
  return null;
};
