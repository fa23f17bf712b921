import { and, countDistinct, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { clientErrors, messages, sessions, users } from '../schema.ts';

/** Workspace-wide counts for the admin overview; admin-only reading. */
export const readOverviewCounts = async (db: Db, since: Date) => {
  const count = sql<number>`count(*)::int`;
  const [[u], [active], [sent], [reported], [failed]] = await Promise.all([
    db.select({ n: count }).from(users),
    db
      .select({ n: countDistinct(sessions.userId) })
      .from(sessions)
      .where(gte(sessions.updatedAt, since)),
    db.select({ n: count }).from(messages).where(gte(messages.created_at, since)),
    db.select({ n: count }).from(clientErrors).where(gte(clientErrors.created_at, since)),
    db
      .select({ n: count })
      .from(messages)
      .where(
        and(
          gte(messages.created_at, since),
          eq(messages.role, 'assistant'),
          eq(messages.status, 'error'),
        ),
      ),
  ]);
  return {
    users_total: Number(u?.n ?? 0),
    active_today: Number(active?.n ?? 0),
    messages_today: Number(sent?.n ?? 0),
    client_errors: Number(reported?.n ?? 0),
    failed_replies: Number(failed?.n ?? 0),
  };
};
