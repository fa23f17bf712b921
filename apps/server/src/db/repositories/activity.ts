import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ActivityTotals } from '@chorus/shared/api/analytics';
import type { Db } from '../client.ts';
import { messages, usageEvents } from '../schema/index.ts';

// The back office's three words, defined here and nowhere else (`activityDefinitions` in
// @chorus/shared/api/analytics says them to people). The overview, analytics, usage statistics and
// the users table all count through this module, so their numbers agree on the same data.
//
// - message: a message a person sent (role user), whatever became of its reply;
// - failed reply: an assistant message whose reply ended in an error (status error); a reply the
//   person stopped, or one cut off but kept, is interrupted, not failed;
// - active: a user who sent a message or made an AI call (a usage event: chat, proxy, agents, …).
//   Having a session open is not activity: sessions refresh on their own.

/** A half-open range of instants, [start, end). */
export type TimeRange = { start: Date; end: Date };

const isMessage = eq(messages.role, 'user');
const isFailedReply = and(eq(messages.role, 'assistant'), eq(messages.status, 'error'));
const within = (column: AnyPgColumn, range: TimeRange) =>
  and(gte(column, range.start), lt(column, range.end));

/** UTC day of a timestamp column, as YYYY-MM-DD text on both drivers. */
export const utcDay = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** `db.execute` answers `{rows}` on node-postgres and PGlite alike. */
export const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);

/** Every (day, user) that counts as activity in the range: messages sent and AI calls made. */
const activityRows = (range: TimeRange) => sql`
  select ${utcDay(messages.created_at)} as day, ${messages.user_id} as user_id from ${messages}
    where ${isMessage} and ${within(messages.created_at, range)}
  union
  select ${utcDay(usageEvents.created_at)} as day, ${usageEvents.user_id} as user_id
    from ${usageEvents} where ${within(usageEvents.created_at, range)}`;

const messageTallies = {
  messages: sql<number>`(count(*) filter (where ${isMessage}))::int`,
  failed: sql<number>`(count(*) filter (where ${isFailedReply}))::int`,
};

/** Active users, messages and failed replies over the whole range. */
export const activityTotals = async (db: Db, range: TimeRange): Promise<ActivityTotals> => {
  const [counts, active] = await Promise.all([
    db.select(messageTallies).from(messages).where(within(messages.created_at, range)),
    db.execute<{ users: number }>(
      sql`select count(distinct user_id)::int as users from (${activityRows(range)}) active`,
    ),
  ]);
  return {
    active_users: Number(rowsOf<{ users: number }>(active)[0]?.users ?? 0),
    messages: Number(counts[0]?.messages ?? 0),
    failed_replies: Number(counts[0]?.failed ?? 0),
  };
};

/** The same three numbers per UTC day; days without activity are absent. */
export const activityByDay = async (
  db: Db,
  range: TimeRange,
): Promise<Map<string, ActivityTotals>> => {
  const [counts, active] = await Promise.all([
    db
      .select({ day: utcDay(messages.created_at), ...messageTallies })
      .from(messages)
      .where(within(messages.created_at, range))
      .groupBy(sql`1`),
    db.execute<{ day: string; users: number }>(
      sql`select day, count(distinct user_id)::int as users from (${activityRows(range)}) active group by day`,
    ),
  ]);
  const days = new Map<string, ActivityTotals>();
  const day = (date: string) => {
    let entry = days.get(date);
    if (!entry) days.set(date, (entry = { active_users: 0, messages: 0, failed_replies: 0 }));
    return entry;
  };
  for (const row of counts) {
    day(row.day).messages = Number(row.messages);
    day(row.day).failed_replies = Number(row.failed);
  }
  for (const row of rowsOf<{ day: string; users: number }>(active)) {
    day(row.day).active_users = Number(row.users);
  }
  return days;
};

/** Per user (a correlated subquery on `userId`): how many messages they sent, ever. */
export const messageCountOf = (userId: AnyPgColumn): SQL<number> =>
  sql<number>`(select count(*)::int from ${messages} where ${messages.user_id} = ${userId} and ${isMessage})`;

/** Per user: when they were last active (last message sent or AI call made), or null. */
export const lastActiveOf = (userId: AnyPgColumn): SQL<Date | string | null> =>
  sql<Date | string | null>`greatest(
    (select max(${messages.created_at}) from ${messages} where ${messages.user_id} = ${userId} and ${isMessage}),
    (select max(${usageEvents.created_at}) from ${usageEvents} where ${usageEvents.user_id} = ${userId})
  )`;
