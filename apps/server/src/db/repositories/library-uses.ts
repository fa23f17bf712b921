import { sql } from 'drizzle-orm';
import { rowsOf, type Db, type Queryable } from '../client.ts';
import { libraryUses, prompts, scenarios } from '../schema/index.ts';

export type LibraryUse = typeof libraryUses.$inferInsert;

/** One more copy of a public entry, or one more run of a copied cookbook scenario. */
export const recordLibraryUse = async (
  db: Queryable,
  use: Pick<LibraryUse, 'kind' | 'item_id' | 'user_id' | 'action'>,
): Promise<void> => {
  await db.insert(libraryUses).values(use);
};

export type TrendCount = {
  kind: 'prompt' | 'scenario';
  id: string;
  title: string;
  days7: number;
  days30: number;
};

const DAY_MS = 86_400_000;

/**
 * The public entries people used in the 30 days up to `now`, as distinct people (one person
 * copying a prompt fifty times counts once, so no one can push an entry up alone): prompts by who
 * copied them, cookbook scenarios by who ran a copy. Only entries published now, and only those at
 * least `min` people used over the 30 days (the 7-day count is never larger).
 */
export const trendCounts = async (db: Db, now: Date, min: number): Promise<TrendCount[]> => {
  const since30 = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const since7 = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const until = now.toISOString();
  const result = await db.execute(sql`
    select u.kind, u.item_id::text as id, coalesce(p.title, s.title) as title,
      (count(distinct u.user_id) filter (where u.created_at >= ${since7}::timestamptz))::int as days7,
      count(distinct u.user_id)::int as days30
    from ${libraryUses} u
    left join ${prompts} p on u.kind = 'prompt' and p.id = u.item_id and p.published
    left join ${scenarios} s on u.kind = 'scenario' and s.id = u.item_id and s.published
    where ((u.kind = 'prompt' and u.action = 'copy') or (u.kind = 'scenario' and u.action = 'run'))
      and u.created_at >= ${since30}::timestamptz
      and u.created_at <= ${until}::timestamptz
      and (p.id is not null or s.id is not null)
    group by u.kind, u.item_id, p.title, s.title
    having count(distinct u.user_id) >= ${min}
  `);
  return rowsOf<TrendCount>(result).map((r) => ({
    ...r,
    days7: Number(r.days7),
    days30: Number(r.days30),
  }));
};
