import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DiscoverItem, DiscoverKind } from '@chorus/shared/api/discover';
import { trendMinCount } from '@chorus/shared/api/trends';
import { rowsOf, type Db } from '../client.ts';
import { containsPattern } from '../like.ts';
import { customAis, libraryUses, prompts, scenarios } from '../schema/index.ts';

export type DiscoverSort = 'newest' | 'most_used';

/**
 * A position in the directory: the last row's sort key, and the moment the first page counted
 * uses at. Later pages count up to that same moment, so uses arriving meanwhile cannot move an
 * entry across a page boundary (skipped or shown twice).
 */
export type DiscoverCursor = {
  sort: DiscoverSort;
  /** The shown uses (0 under `trendMinCount`): the first sort key of `most_used`. */
  uses: number;
  /** Milliseconds, as the rows are compared (see `createdMs`). */
  created_at: string;
  id: string;
  as_of: string;
};

const isoMs = z.iso.datetime();
const cursorSchema = z
  .object({
    s: z.enum(['newest', 'most_used']),
    u: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    t: isoMs,
    i: z.uuid(),
    a: isoMs,
  })
  .strict();

export const encodeDiscoverCursor = (c: DiscoverCursor): string =>
  Buffer.from(
    JSON.stringify({ s: c.sort, u: c.uses, t: c.created_at, i: c.id, a: c.as_of }),
  ).toString('base64url');

/** Null for anything this server did not write, or a cursor of the other sort. */
export const decodeDiscoverCursor = (cursor: string, sort: DiscoverSort): DiscoverCursor | null => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success || result.data.s !== sort) return null;
  const { u, t, i, a } = result.data;
  return { sort, uses: u, created_at: t, id: i.toLowerCase(), as_of: a };
};

const DAY_MS = 86_400_000;
/** How long back "most used" looks. */
export const USES_WINDOW_DAYS = 30;
/** How much of a prompt's text a card shows. */
const PREVIEW_CHARS = 280;

/**
 * Every published prompt, cookbook scenario and custom AI as one relation of the directory's
 * columns. A scenario has no tags; its text is its prompt, or its steps for an entry written
 * before scenarios had a prompt of their own (as `scenarioPrompt` reads it). A custom AI has no
 * tags either; its text is its instructions (public once published), or its first conversation
 * starter, and it is dated by its publication. `created_ms` is the sort key at a cursor's
 * precision: the database keeps microseconds, a cursor milliseconds.
 */
const published = (kind: 'all' | DiscoverKind): SQL => {
  const promptRows = sql`
    select 'prompt'::text as kind, p.id, p.title, p.description, p.category, p.tags,
      p.content as body, p.featured, date_trunc('milliseconds', p.created_at) as created_ms,
      ''::text as avatar
    from ${prompts} p where p.published`;
  const scenarioRows = sql`
    select 'scenario'::text as kind, s.id, s.title, s.description, s.category, '[]'::jsonb as tags,
      case when btrim(s.user_prompt, E' \\t\\r\\n') <> '' then s.user_prompt
        else array_to_string(array(select jsonb_array_elements_text(s.steps)), E'\\n\\n') end as body,
      s.featured, date_trunc('milliseconds', s.created_at) as created_ms, ''::text as avatar
    from ${scenarios} s where s.published`;
  const customAiRows = sql`
    select 'custom_ai'::text as kind, a.id, a.name as title, a.description, a.category,
      '[]'::jsonb as tags,
      case when btrim(a.system_prompt, E' \\t\\r\\n') <> '' then a.system_prompt
        else coalesce(a.starters[1], '') end as body,
      a.featured, date_trunc('milliseconds', coalesce(a.published_at, a.created_at)) as created_ms,
      a.avatar
    from ${customAis} a where a.share_status = 'published'`;
  const byKind = { prompt: promptRows, scenario: scenarioRows, custom_ai: customAiRows };
  if (kind !== 'all') return byKind[kind];
  return sql`${promptRows} union all ${scenarioRows} union all ${customAiRows}`;
};

type Row = {
  kind: DiscoverKind;
  id: string;
  title: string;
  description: string;
  category: string;
  tags: string[];
  preview: string;
  featured: boolean;
  uses: number;
  created_at: string;
  avatar: string;
};

/**
 * The public directory (no user: everyone sees the same). Never selects an author, an owner or
 * anything an entry's author keeps private.
 */
export class DiscoverRepository {
  constructor(private readonly db: Db) {}

  /**
   * One page, and the cursor after it when more follow. `newest`: by creation, newest first;
   * `most_used`: by the people who copied or ran the entry in the last 30 days (counts under
   * `trendMinCount` count as 0, as they are shown), then newest.
   */
  async list(opts: {
    kind: 'all' | DiscoverKind;
    search?: string | undefined;
    category?: string | undefined;
    tag?: string | undefined;
    sort: DiscoverSort;
    limit: number;
    after?: DiscoverCursor | undefined;
    now?: Date;
  }): Promise<{ items: DiscoverItem[]; next: DiscoverCursor | null }> {
    const asOf = opts.after ? new Date(opts.after.as_of) : (opts.now ?? new Date());
    const since = new Date(asOf.getTime() - USES_WINDOW_DAYS * DAY_MS).toISOString();
    const pattern = opts.search ? containsPattern(opts.search) : null;
    const shownUses = sql`(case when coalesce(u.n, 0) >= ${trendMinCount} then u.n else 0 end)`;
    const filters: SQL[] = [sql`true`];
    if (pattern) {
      filters.push(sql`(i.title ilike ${pattern} or i.description ilike ${pattern}
        or i.body ilike ${pattern}
        or exists (select 1 from jsonb_array_elements_text(i.tags) as tag where tag ilike ${pattern}))`);
    }
    if (opts.category) filters.push(sql`i.category = ${opts.category}`);
    if (opts.tag) filters.push(sql`i.tags @> jsonb_build_array(${opts.tag}::text)`);
    const { after } = opts;
    if (after) {
      filters.push(
        opts.sort === 'most_used'
          ? sql`(${shownUses}, i.created_ms, i.id) < (${after.uses}::int, ${after.created_at}::timestamptz, ${after.id}::uuid)`
          : sql`(i.created_ms, i.id) < (${after.created_at}::timestamptz, ${after.id}::uuid)`,
      );
    }
    const order =
      opts.sort === 'most_used'
        ? sql`${shownUses} desc, i.created_ms desc, i.id desc`
        : sql`i.created_ms desc, i.id desc`;
    const result = await this.db.execute(sql`
      select i.kind, i.id::text as id, i.title, i.description, i.category, i.tags,
        left(i.body, ${PREVIEW_CHARS}) as preview, i.featured, i.avatar,
        ${shownUses}::int as uses,
        to_char(i.created_ms at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
      from (${published(opts.kind)}) i
      left join (
        select kind, item_id, count(distinct user_id)::int as n
        from ${libraryUses}
        where kind in ('prompt', 'scenario') and action in ('copy', 'run')
          and created_at > ${since}::timestamptz and created_at <= ${asOf.toISOString()}::timestamptz
        group by kind, item_id
      ) u on u.kind = i.kind and u.item_id = i.id
      where ${sql.join(filters, sql` and `)}
      order by ${order}
      limit ${opts.limit + 1}
    `);
    const rows = rowsOf<Row>(result);
    const page = rows.slice(0, opts.limit);
    const last = page.at(-1);
    return {
      items: page.map((r): DiscoverItem => {
        const item = {
          id: r.id,
          title: r.title,
          description: r.description,
          category: r.category,
          tags: r.tags,
          preview: r.preview,
          featured: r.featured,
          uses: Number(r.uses) > 0 ? Number(r.uses) : null,
          created_at: r.created_at,
        };
        return r.kind === 'custom_ai'
          ? { kind: r.kind, ...item, avatar: r.avatar }
          : { kind: r.kind, ...item };
      }),
      next:
        rows.length > opts.limit && last
          ? {
              sort: opts.sort,
              uses: Number(last.uses),
              created_at: last.created_at,
              id: last.id,
              as_of: asOf.toISOString(),
            }
          : null,
    };
  }

  /** Every category and every tag of the published entries, alphabetically (custom AIs have no tags). */
  async facets(): Promise<{ categories: string[]; tags: string[] }> {
    const [categories, tags] = await Promise.all([
      this.db.execute(sql`
        select category from ${prompts} where published and category <> ''
        union
        select category from ${scenarios} where published and category <> ''
        union
        select category from ${customAis} where share_status = 'published' and category <> ''
        order by 1 limit 500`),
      this.db.execute(sql`
        select distinct tag from ${prompts} p, jsonb_array_elements_text(p.tags) as tag
        where p.published and tag <> ''
        order by 1 limit 500`),
    ]);
    return {
      categories: rowsOf<{ category: string }>(categories).map((r) => r.category),
      tags: rowsOf<{ tag: string }>(tags).map((r) => r.tag),
    };
  }
}
