import { and, desc, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AnalyticsResponse } from '@chorus/shared/api/analytics';
import type { ModelTokenUsage, UserDailyUsage } from '@chorus/shared/api/usage';
import type { Db } from '../client.ts';
import { clientErrors, messages, promptUsage, usageEvents, users } from '../schema.ts';

export type UsageEventInput = {
  kind: 'chat' | 'proxy';
  provider: string;
  model: string | null;
  input_tokens: number;
  output_tokens: number;
  status: 'ok' | 'error';
};

/** The signed-in user's own counters; every query is keyed by the user's id. */
export class UsageRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /**
   * Counts one prompt for `date` unless the count already reached `limit` (null: unlimited).
   * One statement, so concurrent calls cannot both take the last prompt. Returns the new count,
   * or null when the limit was reached.
   */
  async consumePrompt(date: string, limit: number | null): Promise<number | null> {
    if (limit !== null && limit <= 0) return null;
    const [row] = await this.db
      .insert(promptUsage)
      .values({ user_id: this.userId, date, count: 1 })
      .onConflictDoUpdate({
        target: [promptUsage.user_id, promptUsage.date],
        set: { count: sql`${promptUsage.count} + 1` },
        ...(limit !== null && { setWhere: sql`${promptUsage.count} < ${limit}` }),
      })
      .returning({ count: promptUsage.count });
    return row ? row.count : null;
  }

  async countOn(date: string): Promise<number> {
    const [row] = await this.db
      .select({ count: promptUsage.count })
      .from(promptUsage)
      .where(and(eq(promptUsage.user_id, this.userId), eq(promptUsage.date, date)))
      .limit(1);
    return row?.count ?? 0;
  }

  async record(event: UsageEventInput): Promise<void> {
    await this.db.insert(usageEvents).values({ user_id: this.userId, ...event });
  }
}

/** UTC day of a timestamp column, as YYYY-MM-DD text on both drivers. */
const utcDay = (column: unknown) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Half-open UTC range [from 00:00, day after `to` 00:00). */
const rangeOf = (from: string, to: string) => {
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(`${to}T00:00:00.000Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return { start, end };
};

/** Admin-only reading across users; callers must have passed requireRole('admin'). */
export const usageStatistics = async (
  db: Db,
  from: string,
  to: string,
): Promise<{ prompt_usage: UserDailyUsage[]; tokens: ModelTokenUsage[] }> => {
  const { start, end } = rangeOf(from, to);
  const [daily, tokens] = await Promise.all([
    db
      .select({
        user_id: promptUsage.user_id,
        email: users.email,
        date: sql<string>`${promptUsage.date}::text`,
        count: promptUsage.count,
      })
      .from(promptUsage)
      .innerJoin(users, eq(users.id, promptUsage.user_id))
      .where(and(gte(promptUsage.date, from), sql`${promptUsage.date} <= ${to}`))
      .orderBy(desc(promptUsage.date), asc(users.email)),
    db
      .select({
        provider: usageEvents.provider,
        model: usageEvents.model,
        calls: sql<number>`count(*)::int`,
        errors: sql<number>`(count(*) filter (where ${usageEvents.status} = 'error'))::int`,
        input_tokens: sql<number>`coalesce(sum(${usageEvents.input_tokens}), 0)::bigint`,
        output_tokens: sql<number>`coalesce(sum(${usageEvents.output_tokens}), 0)::bigint`,
      })
      .from(usageEvents)
      .where(and(gte(usageEvents.created_at, start), lt(usageEvents.created_at, end)))
      .groupBy(usageEvents.provider, usageEvents.model)
      .orderBy(asc(usageEvents.provider), asc(usageEvents.model)),
  ]);
  return {
    prompt_usage: daily.map((d) => ({ ...d, count: Number(d.count) })),
    tokens: tokens.map((t) => ({
      provider: t.provider,
      model: t.model,
      calls: Number(t.calls),
      errors: Number(t.errors),
      input_tokens: Number(t.input_tokens),
      output_tokens: Number(t.output_tokens),
    })),
  };
};

/** Every UTC date from `from` to `to`, inclusive. */
export const daysBetween = (from: string, to: string): string[] => {
  const out: string[] = [];
  const day = new Date(`${from}T00:00:00.000Z`);
  const last = new Date(`${to}T00:00:00.000Z`);
  while (day <= last) {
    out.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return out;
};

/** Daily activity of the whole workspace, counted from messages, usage_events and client_errors. */
export const analytics = async (db: Db, from: string, to: string): Promise<AnalyticsResponse> => {
  const { start, end } = rangeOf(from, to);
  const inRange = (column: AnyPgColumn) => and(gte(column, start), lt(column, end));
  const messageDay = utcDay(messages.created_at);
  const eventDay = utcDay(usageEvents.created_at);
  const clientErrorDay = utcDay(clientErrors.created_at);

  const [messageRows, eventRows, activeRows, clientErrorRows, providerRows, totalActive] =
    await Promise.all([
      db
        .select({
          day: messageDay,
          messages: sql<number>`count(*)::int`,
          failed: sql<number>`(count(*) filter (where ${messages.role} = 'assistant' and ${messages.status} = 'error'))::int`,
        })
        .from(messages)
        .where(inRange(messages.created_at))
        .groupBy(sql`1`),
      db
        .select({
          day: eventDay,
          calls: sql<number>`count(*)::int`,
          errors: sql<number>`(count(*) filter (where ${usageEvents.status} = 'error'))::int`,
        })
        .from(usageEvents)
        .where(inRange(usageEvents.created_at))
        .groupBy(sql`1`),
      db.execute<{ day: string; users: number }>(sql`
        select day, count(distinct user_id)::int as users from (
          select ${messageDay} as day, ${messages.user_id} as user_id from ${messages}
            where ${messages.role} = 'user' and ${inRange(messages.created_at)}
          union all
          select ${eventDay} as day, ${usageEvents.user_id} as user_id from ${usageEvents}
            where ${inRange(usageEvents.created_at)}
        ) active group by day`),
      db
        .select({ day: clientErrorDay, n: sql<number>`count(*)::int` })
        .from(clientErrors)
        .where(inRange(clientErrors.created_at))
        .groupBy(sql`1`),
      db
        .select({ provider: usageEvents.provider, calls: sql<number>`count(*)::int` })
        .from(usageEvents)
        .where(inRange(usageEvents.created_at))
        .groupBy(usageEvents.provider)
        .orderBy(desc(sql`2`), asc(usageEvents.provider)),
      db.execute<{ users: number }>(sql`
        select count(distinct user_id)::int as users from (
          select ${messages.user_id} as user_id from ${messages}
            where ${messages.role} = 'user' and ${inRange(messages.created_at)}
          union
          select ${usageEvents.user_id} from ${usageEvents} where ${inRange(usageEvents.created_at)}
        ) active`),
    ]);

  const byDay = <T extends { day: string }>(rows: T[]) => new Map(rows.map((r) => [r.day, r]));
  const msgs = byDay(messageRows);
  const events = byDay(eventRows);
  const active = byDay(rowsOf<{ day: string; users: number }>(activeRows));
  const clientErrs = byDay(clientErrorRows);
  const days = daysBetween(from, to).map((date) => {
    const calls = Number(events.get(date)?.calls ?? 0);
    const errors = Number(events.get(date)?.errors ?? 0);
    return {
      date,
      active_users: Number(active.get(date)?.users ?? 0),
      messages: Number(msgs.get(date)?.messages ?? 0),
      calls,
      errors,
      error_rate: calls === 0 ? 0 : errors / calls,
      failed_replies: Number(msgs.get(date)?.failed ?? 0),
      client_errors: Number(clientErrs.get(date)?.n ?? 0),
    };
  });
  const totalCalls = providerRows.reduce((n, p) => n + Number(p.calls), 0);
  return {
    from,
    to,
    days,
    providers: providerRows.map((p) => ({
      provider: p.provider,
      calls: Number(p.calls),
      share: totalCalls === 0 ? 0 : Number(p.calls) / totalCalls,
    })),
    totals: {
      active_users: Number(rowsOf<{ users: number }>(totalActive)[0]?.users ?? 0),
      messages: days.reduce((n, d) => n + d.messages, 0),
      calls: totalCalls,
      errors: days.reduce((n, d) => n + d.errors, 0),
    },
  };
};

/** `db.execute` answers `{rows}` on node-postgres and PGlite alike. */
const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
