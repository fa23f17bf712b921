import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * Runs `fn` in a transaction that holds the user's lock on `what` (an advisory lock, released with
 * the transaction), so the count that checks a per-user limit and the insert it allows happen
 * with no other request of that user for `what` between them. Without it two requests at once
 * both count the same rows and both insert (docs/SECURITY.md "Budgets under races").
 *
 * `fn` must run all its queries on the transaction it is given: on the embedded database a query
 * on the outer handle would wait for this transaction to end.
 */
export const withinUserLimit = <T>(
  db: Db,
  what: string,
  userId: string,
  fn: (tx: Db) => Promise<T>,
): Promise<T> =>
  db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${what}:${userId}`}, 0))`,
    );
    return fn(tx);
  });
