import { EARLIEST_DATE, isStorableDate, LATEST_DATE } from '@chorus/shared/api/dates';
import { USAGE_MAX_RANGE_DAYS } from '@chorus/shared/api/usage';
import { daysBetween, usageStatistics } from '../../../../db/repositories/usage.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { utcDate } from '../../../../quota/quota.ts';
import { toCsv } from './csv.ts';
import { usageStatisticsRoute } from './usage-statistics.routes.ts';
import { messageFor } from '@chorus/shared/error-catalogue';

const DEFAULT_RANGE_DAYS = 30;

/** `date` moved by `days`, kept within the dates a request may name. */
const shiftDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00.000Z`);
  d.setUTCDate(d.getUTCDate() + days);
  if (isStorableDate(d)) return utcDate(d);
  return days < 0 ? EARLIEST_DATE : LATEST_DATE;
};

/** The range asked for, defaulting to the last 30 days; refused when longer than 366 days. */
export const dateRange = (from: string | undefined, to: string | undefined) => {
  const end = to ?? (from ? shiftDays(from, DEFAULT_RANGE_DAYS - 1) : utcDate(new Date()));
  const start = from ?? shiftDays(end, -(DEFAULT_RANGE_DAYS - 1));
  if (start > end) {
    throw new ApiError(400, 'usage:bad_range');
  }
  if (daysBetween(start, end).length > USAGE_MAX_RANGE_DAYS) {
    throw new ApiError(
      400,
      'usage:range_too_long',
      messageFor('usage:range_too_long', { max: USAGE_MAX_RANGE_DAYS, start, end }),
    );
  }
  return { from: start, to: end };
};

export const adminUsageStatisticsRouter = createRouter<AuthedEnv>().openapi(
  usageStatisticsRoute,
  async (c) => {
    const query = c.req.valid('query');
    const { from, to } = dateRange(query.from, query.to);
    const stats = await usageStatistics(c.var.deps.database.db, from, to);
    if (query.format === 'json') return c.json({ from, to, ...stats }, 200);
    const totals = ['calls', 'errors', 'input_tokens', 'output_tokens', 'cost_usd'] as const;
    const csv =
      query.table === 'tokens'
        ? toCsv(
            ['provider', 'model', ...totals],
            stats.tokens.map((r) => [r.provider, r.model, ...totals.map((k) => r[k])]),
          )
        : query.table === 'sources'
          ? toCsv(
              ['source', ...totals],
              stats.sources.map((r) => [r.source, ...totals.map((k) => r[k])]),
            )
          : toCsv(
              ['date', 'user_id', 'email', 'prompts'],
              stats.prompt_usage.map((r) => [r.date, r.user_id, r.email, r.count]),
            );
    const name = `chorus-${query.table.replace('_', '-')}-${from}-to-${to}.csv`;
    return new Response(csv, {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${name}"`,
        'cache-control': 'no-store',
      },
    });
  },
);
