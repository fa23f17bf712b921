import { and, desc, asc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ActivityTotals, AnalyticsResponse } from '@chorus/shared/api/analytics';
import { isStorableDate } from '@chorus/shared/api/dates';
import type {
  ModelTokenUsage,
  SourceUsage,
  UsageSource,
  UserDailyUsage,
} from '@chorus/shared/api/usage';
import type { Db } from '../client.ts';
import { clientErrors, promptUsage, usageEvents, users } from '../schema/index.ts';
import { activityByDay, activityTotals, utcDay } from './activity.ts';

export type UsageEventInput = {
  source: UsageSource;
  provider: string;
  model: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  latency_ms: number | null;
  ttft_ms: number | null;
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

/**
 * Half-open UTC range [from 00:00, day after `to` 00:00). The day after 9999-12-31 cannot be
 * sent to the database (see `@chorus/shared/api/dates`), so a range ending that day stops at its
 * last millisecond.
 */
const rangeOf = (from: string, to: string) => {
  const start = new Date(`${from}T00:00:00.000Z`);
  const end = new Date(`${to}T00:00:00.000Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return { start, end: isStorableDate(end) ? end : new Date(`${to}T23:59:59.999Z`) };
};

/** Admin-only reading across users; callers must have passed requireRole('admin'). */
export const usageStatistics = async (
  db: Db,
  from: string,
  to: string,
): Promise<{
  activity: ActivityTotals;
  prompt_usage: UserDailyUsage[];
  tokens: ModelTokenUsage[];
  sources: SourceUsage[];
}> => {
  const range = rangeOf(from, to);
  const { start, end } = range;
  const inRange = and(gte(usageEvents.created_at, start), lt(usageEvents.created_at, end));
  const totals = {
    calls: sql<number>`count(*)::int`,
    errors: sql<number>`(count(*) filter (where ${usageEvents.status} = 'error'))::int`,
    input_tokens: sql<number>`coalesce(sum(${usageEvents.input_tokens}), 0)::bigint`,
    output_tokens: sql<number>`coalesce(sum(${usageEvents.output_tokens}), 0)::bigint`,
    cost_usd: sql<string | null>`sum(${usageEvents.cost_usd})`,
  };
  const numbers = (r: {
    calls: number;
    errors: number;
    input_tokens: number;
    output_tokens: number;
    cost_usd: string | number | null;
  }) => ({
    calls: Number(r.calls),
    errors: Number(r.errors),
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    cost_usd: r.cost_usd === null ? null : Number(r.cost_usd),
  });
  const [activity, daily, tokens, sources] = await Promise.all([
    activityTotals(db, range),
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
      .select({ provider: usageEvents.provider, model: usageEvents.model, ...totals })
      .from(usageEvents)
      .where(inRange)
      .groupBy(usageEvents.provider, usageEvents.model)
      .orderBy(asc(usageEvents.provider), asc(usageEvents.model)),
    db
      .select({ source: usageEvents.source, ...totals })
      .from(usageEvents)
      .where(inRange)
      .groupBy(usageEvents.source)
      .orderBy(asc(usageEvents.source)),
  ]);
  return {
    activity,
    prompt_usage: daily.map((d) => ({ ...d, count: Number(d.count) })),
    tokens: tokens.map((t) => ({ provider: t.provider, model: t.model, ...numbers(t) })),
    sources: sources.map((s) => ({ source: s.source, ...numbers(s) })),
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

/**
 * Daily activity of the whole workspace: active users, messages and failed replies as
 * activity.ts defines them, AI calls and their failures from usage_events, browser errors.
 */
export const analytics = async (db: Db, from: string, to: string): Promise<AnalyticsResponse> => {
  const range = rangeOf(from, to);
  const inRange = (column: AnyPgColumn) => and(gte(column, range.start), lt(column, range.end));
  const eventDay = utcDay(usageEvents.created_at);
  const clientErrorDay = utcDay(clientErrors.created_at);

  const [activity, totals, eventRows, clientErrorRows, providerRows] = await Promise.all([
    activityByDay(db, range),
    activityTotals(db, range),
    db
      .select({
        day: eventDay,
        calls: sql<number>`count(*)::int`,
        errors: sql<number>`(count(*) filter (where ${usageEvents.status} = 'error'))::int`,
      })
      .from(usageEvents)
      .where(inRange(usageEvents.created_at))
      .groupBy(sql`1`),
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
  ]);

  const byDay = <T extends { day: string }>(rows: T[]) => new Map(rows.map((r) => [r.day, r]));
  const events = byDay(eventRows);
  const clientErrs = byDay(clientErrorRows);
  const days = daysBetween(from, to).map((date) => {
    const calls = Number(events.get(date)?.calls ?? 0);
    const errors = Number(events.get(date)?.errors ?? 0);
    const day = activity.get(date);
    return {
      date,
      active_users: day?.active_users ?? 0,
      messages: day?.messages ?? 0,
      calls,
      errors,
      error_rate: calls === 0 ? 0 : errors / calls,
      failed_replies: day?.failed_replies ?? 0,
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
      ...totals,
      calls: totalCalls,
      errors: days.reduce((n, d) => n + d.errors, 0),
    },
  };
};
