import { gte, lt, and, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { clientErrors, users } from '../schema/index.ts';
import { activityTotals, type TimeRange } from './activity.ts';

/**
 * Workspace-wide counts for the admin overview over `range` (today, UTC); admin-only reading.
 * Active users, messages and failed replies are counted as everywhere else (activity.ts).
 */
export const readOverviewCounts = async (db: Db, range: TimeRange) => {
  const count = sql<number>`count(*)::int`;
  const [[u], [reported], activity] = await Promise.all([
    db.select({ n: count }).from(users),
    db
      .select({ n: count })
      .from(clientErrors)
      .where(
        and(gte(clientErrors.created_at, range.start), lt(clientErrors.created_at, range.end)),
      ),
    activityTotals(db, range),
  ]);
  return {
    users_total: Number(u?.n ?? 0),
    active_today: activity.active_users,
    messages_today: activity.messages,
    client_errors: Number(reported?.n ?? 0),
    failed_replies: activity.failed_replies,
  };
};
