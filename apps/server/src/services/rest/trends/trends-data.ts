import { trendMinCount, type TrendEntry, type Trends } from '@chorus/shared/api/trends';
import type { Db } from '../../../db/client.ts';
import { trendCounts, type TrendCount } from '../../../db/repositories/library-uses.ts';

/** The same for every visitor and costly to count: kept this long per database. */
export const TRENDS_CACHE_MS = 60_000;
const TOP = 10;

type Entry = { at: number; trends: Promise<Trends> };
const cache = new WeakMap<Db, Entry>();

const top = (counts: TrendCount[], kind: TrendCount['kind'], days: 'days7' | 'days30') =>
  counts
    .filter((c) => c.kind === kind && c[days] >= trendMinCount)
    .sort((a, b) => b[days] - a[days] || a.title.localeCompare(b.title) || a.id.localeCompare(b.id))
    .slice(0, TOP)
    .map((c): TrendEntry => ({ id: c.id, title: c.title, count: c[days] }));

const countTrends = async (db: Db, now: Date): Promise<Trends> => {
  const counts = await trendCounts(db, now, trendMinCount);
  return {
    prompts: { days7: top(counts, 'prompt', 'days7'), days30: top(counts, 'prompt', 'days30') },
    scenarios: {
      days7: top(counts, 'scenario', 'days7'),
      days30: top(counts, 'scenario', 'days30'),
    },
    min_count: trendMinCount,
    generated_at: now.toISOString(),
  };
};

/**
 * This instance's trends: the public prompts the most people copied and the cookbook scenarios
 * the most people ran a copy of, over 7 and 30 days, each count at least `trendMinCount`.
 * Counted at most once a minute per server instance; callers arriving meanwhile share the count.
 */
export const trendsOf = (db: Db, now = Date.now()): Promise<Trends> => {
  const hit = cache.get(db);
  if (hit && now - hit.at < TRENDS_CACHE_MS) return hit.trends;
  const trends = countTrends(db, new Date(now));
  cache.set(db, { at: now, trends });
  // A failed count is not kept: the next caller tries again.
  trends.catch(() => {
    if (cache.get(db)?.trends === trends) cache.delete(db);
  });
  return trends;
};

/** Forgets the counted trends, so the next caller counts afresh (tests that add uses). */
export const forgetTrends = (db: Db) => {
  cache.delete(db);
};
