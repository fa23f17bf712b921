import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { prefixQuery } from './message-search.ts';
import { rowsOf, type Db } from '../client.ts';
import {
  agents,
  customAis,
  widgetConversations,
  widgetMessages,
  widgets,
  widgetUsageDays,
  widgetVisitors,
} from '../schema/index.ts';
import type { AgentToolSetting } from '../schema/agents.ts';

export type WidgetRow = typeof widgets.$inferSelect;
export type WidgetVisitorRow = typeof widgetVisitors.$inferSelect;
export type WidgetMessageRow = typeof widgetMessages.$inferSelect;

/** A widget as its owner reads it: the row, its target's name and its usage so far. */
export type WidgetView = WidgetRow & {
  /** The agent's or custom AI's name; null once it was deleted (both ids are then null). */
  target_name: string | null;
  tokens_today: number;
  tokens_this_month: number;
  messages_today: number;
};

/** What a widget's owner sets on it (normalised, checked). */
export type WidgetFields = Pick<
  typeof widgets.$inferInsert,
  | 'name'
  | 'agent_id'
  | 'custom_ai_id'
  | 'allowed_origins'
  | 'appearance'
  | 'messages_per_visitor_hour'
  | 'daily_tokens'
  | 'monthly_tokens'
  | 'max_reply_tokens'
  | 'require_signed_visitors'
  | 'allowed_tools'
  | 'tool_arguments'
  | 'show_sources'
  | 'enabled'
>;

/** The agent or custom AI a widget may speak for: one of its owner's. */
export type WidgetTarget =
  | { kind: 'agent'; id: string; name: string; tools: AgentToolSetting[] }
  | { kind: 'custom_ai'; id: string; name: string };

/** A conversation of a widget as its owner lists it, with its visitor and a line of text. */
export type WidgetConversationBriefRow = {
  id: string;
  title: string;
  message_count: number;
  input_tokens: number;
  output_tokens: number;
  created_at: Date;
  updated_at: Date;
  /** `updated_at` to the microsecond (the keyset's exact position), as UTC text. */
  position: string;
  /** The start of the matching message when searching, else of the last one; null for none. */
  line: string | null;
  visitor: WidgetVisitorRow;
};

export type WidgetUsageDayRow = {
  day: string;
  messages: number;
  input_tokens: number;
  output_tokens: number;
  visitors: number;
};

/** The keyset position of a conversation list: `updated_at` to the microsecond, then `id`. */
export type WidgetSessionsCursor = { position: string; id: string };

/**
 * Budgets and usage count by UTC day (`widget_usage_days.day`); the month is the UTC calendar
 * month. The public runtime writes the rows with the same days.
 */
const utcToday = sql`(now() at time zone 'UTC')::date`;
const utcMonthStart = sql`date_trunc('month', now() at time zone 'UTC')::date`;

/** How much of a message is read for its list line; the rest is never sent to the list. */
const lineSourceChars = 2_000;

/**
 * A user's widgets (issue 21) and the owner's view of their visitors, conversations and usage.
 * Every query is scoped to `userId`: another user's widget is as good as missing. Removing a
 * widget removes, by cascade, its visitors, their sessions, conversations, messages and usage.
 */
export class WidgetsRepository {
  constructor(
    private readonly db: Db,
    readonly userId: string,
  ) {}

  private mine(id: string) {
    return and(eq(widgets.id, id), eq(widgets.user_id, this.userId));
  }

  /** The owner's widgets with target names and usage, in one query; newest first. */
  private views(where: SQL | undefined) {
    const usage = this.db
      .select({
        widget_id: widgetUsageDays.widget_id,
        tokens_today:
          sql<number>`coalesce(sum(${widgetUsageDays.input_tokens} + ${widgetUsageDays.output_tokens}) filter (where ${widgetUsageDays.day} = ${utcToday}), 0)::float8`.as(
            'tokens_today',
          ),
        tokens_this_month:
          sql<number>`coalesce(sum(${widgetUsageDays.input_tokens} + ${widgetUsageDays.output_tokens}), 0)::float8`.as(
            'tokens_this_month',
          ),
        messages_today:
          sql<number>`coalesce(sum(${widgetUsageDays.messages}) filter (where ${widgetUsageDays.day} = ${utcToday}), 0)::float8`.as(
            'messages_today',
          ),
      })
      .from(widgetUsageDays)
      .innerJoin(
        widgets,
        and(eq(widgets.id, widgetUsageDays.widget_id), eq(widgets.user_id, this.userId)),
      )
      .where(sql`${widgetUsageDays.day} >= ${utcMonthStart}`)
      .groupBy(widgetUsageDays.widget_id)
      .as('usage');
    return this.db
      .select({
        widget: widgets,
        target_name: sql<string | null>`coalesce(${agents.name}, ${customAis.name})`,
        tokens_today: sql<number>`coalesce(${usage.tokens_today}, 0)`.mapWith(Number),
        tokens_this_month: sql<number>`coalesce(${usage.tokens_this_month}, 0)`.mapWith(Number),
        messages_today: sql<number>`coalesce(${usage.messages_today}, 0)`.mapWith(Number),
      })
      .from(widgets)
      .leftJoin(agents, and(eq(agents.id, widgets.agent_id), eq(agents.user_id, widgets.user_id)))
      .leftJoin(
        customAis,
        and(eq(customAis.id, widgets.custom_ai_id), eq(customAis.user_id, widgets.user_id)),
      )
      .leftJoin(usage, eq(usage.widget_id, widgets.id))
      .where(and(eq(widgets.user_id, this.userId), where))
      .orderBy(desc(widgets.created_at), desc(widgets.id))
      .then((rows) =>
        rows.map(({ widget, ...rest }): WidgetView => ({
          ...widget,
          ...rest,
          target_name: widget.agent_id || widget.custom_ai_id ? rest.target_name : null,
        })),
      );
  }

  list(): Promise<WidgetView[]> {
    return this.views(undefined);
  }

  async view(id: string): Promise<WidgetView | null> {
    const [row] = await this.views(eq(widgets.id, id));
    return row ?? null;
  }

  async get(id: string): Promise<WidgetRow | null> {
    const [row] = await this.db.select().from(widgets).where(this.mine(id));
    return row ?? null;
  }

  async count(): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(widgets)
      .where(eq(widgets.user_id, this.userId));
    return Number(row?.n ?? 0);
  }

  /** The agent or custom AI named, when it is the owner's; null otherwise. */
  async target(t: {
    agent_id: string | null;
    custom_ai_id: string | null;
  }): Promise<WidgetTarget | null> {
    if (t.agent_id) {
      const [row] = await this.db
        .select({ id: agents.id, name: agents.name, tools: agents.tools })
        .from(agents)
        .where(and(eq(agents.id, t.agent_id), eq(agents.user_id, this.userId)));
      return row ? { kind: 'agent', ...row } : null;
    }
    if (t.custom_ai_id) {
      const [row] = await this.db
        .select({ id: customAis.id, name: customAis.name })
        .from(customAis)
        .where(and(eq(customAis.id, t.custom_ai_id), eq(customAis.user_id, this.userId)));
      return row ? { kind: 'custom_ai', ...row } : null;
    }
    return null;
  }

  async create(
    fields: WidgetFields & { public_id: string; secret_sealed: string; secret_hint: string },
  ): Promise<WidgetRow> {
    const [row] = await this.db
      .insert(widgets)
      .values({ ...fields, user_id: this.userId })
      .returning();
    return row!;
  }

  async update(
    id: string,
    patch: Partial<WidgetFields> & { secret_sealed?: string; secret_hint?: string },
  ): Promise<WidgetRow | null> {
    const [row] = await this.db
      .update(widgets)
      .set({ ...patch, updated_at: new Date() })
      .where(this.mine(id))
      .returning();
    return row ?? null;
  }

  /** Removes the widget and, by cascade, everything of its visitors: it answers no more. */
  async remove(id: string): Promise<boolean> {
    const rows = await this.db.delete(widgets).where(this.mine(id)).returning({ id: widgets.id });
    return rows.length > 0;
  }

  // --- The owner's view: conversations, visitors, usage. Callers check the widget is theirs.

  /**
   * A widget's conversations, most recently active first, after `after`; with `words`, only
   * those with a message holding every word as a prefix (`to_tsvector('simple', content)`, the
   * expression of the GIN index `widget_messages_search_idx`).
   */
  async conversations(
    widgetId: string,
    opts: { limit: number; after?: WidgetSessionsCursor | undefined; words?: string[] | undefined },
  ): Promise<WidgetConversationBriefRow[]> {
    const { after, words } = opts;
    const match = words?.length
      ? sql`to_tsvector('simple', ${widgetMessages.content}) @@ to_tsquery('simple', ${prefixQuery(words)})`
      : undefined;
    const matching = match
      ? inArray(
          widgetConversations.id,
          this.db
            .select({ id: widgetMessages.conversation_id })
            .from(widgetMessages)
            .where(and(eq(widgetMessages.widget_id, widgetId), match)),
        )
      : undefined;
    const line = sql<string | null>`(
      select left(${widgetMessages.content}, ${lineSourceChars}) from ${widgetMessages}
      where ${widgetMessages.conversation_id} = ${widgetConversations.id}
      ${match ? sql`and ${match}` : sql``}
      order by ${widgetMessages.created_at} desc, ${widgetMessages.id} desc limit 1
    )`;
    const rows = await this.db
      .select({
        conversation: widgetConversations,
        position: sql<string>`to_char(${widgetConversations.updated_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
        line,
        visitor: widgetVisitors,
      })
      .from(widgetConversations)
      .innerJoin(widgetVisitors, eq(widgetVisitors.id, widgetConversations.visitor_id))
      .innerJoin(
        widgets,
        and(eq(widgets.id, widgetConversations.widget_id), eq(widgets.user_id, this.userId)),
      )
      .where(
        and(
          eq(widgetConversations.widget_id, widgetId),
          matching,
          after &&
            sql`(${widgetConversations.updated_at}, ${widgetConversations.id}) < (${after.position}::timestamptz, ${after.id}::uuid)`,
        ),
      )
      .orderBy(desc(widgetConversations.updated_at), desc(widgetConversations.id))
      .limit(opts.limit);
    return rows.map(({ conversation, ...rest }) => ({
      id: conversation.id,
      title: conversation.title,
      message_count: conversation.message_count,
      input_tokens: conversation.input_tokens,
      output_tokens: conversation.output_tokens,
      created_at: conversation.created_at,
      updated_at: conversation.updated_at,
      ...rest,
    }));
  }

  /** One conversation of the widget with its messages in order; null when not the widget's. */
  async conversation(
    widgetId: string,
    conversationId: string,
  ): Promise<{ brief: WidgetConversationBriefRow; messages: WidgetMessageRow[] } | null> {
    const [row] = await this.db
      .select({ conversation: widgetConversations, visitor: widgetVisitors })
      .from(widgetConversations)
      .innerJoin(widgetVisitors, eq(widgetVisitors.id, widgetConversations.visitor_id))
      .innerJoin(
        widgets,
        and(eq(widgets.id, widgetConversations.widget_id), eq(widgets.user_id, this.userId)),
      )
      .where(
        and(
          eq(widgetConversations.id, conversationId),
          eq(widgetConversations.widget_id, widgetId),
        ),
      );
    if (!row) return null;
    const messages = await this.db
      .select()
      .from(widgetMessages)
      .where(eq(widgetMessages.conversation_id, conversationId))
      .orderBy(asc(widgetMessages.created_at), asc(widgetMessages.id));
    const { conversation, visitor } = row;
    const last = messages.at(-1);
    return {
      brief: {
        id: conversation.id,
        title: conversation.title,
        message_count: conversation.message_count,
        input_tokens: conversation.input_tokens,
        output_tokens: conversation.output_tokens,
        created_at: conversation.created_at,
        updated_at: conversation.updated_at,
        position: conversation.updated_at.toISOString(),
        line: last ? last.content.slice(0, lineSourceChars) : null,
        visitor,
      },
      messages,
    };
  }

  /**
   * Blocks or unblocks a visitor of the widget. Their sessions are kept, so that a blocked
   * visitor coming back with one is refused as blocked instead of starting afresh (every use of
   * a session checks the block); unblocking lets those sessions work again. Null when the
   * visitor is not the widget's (or the widget not the user's).
   */
  block(widgetId: string, visitorId: string, blocked: boolean): Promise<WidgetVisitorRow | null> {
    return this.db.transaction(async (tx) => {
      const [owned] = await tx.select({ id: widgets.id }).from(widgets).where(this.mine(widgetId));
      if (!owned) return null;
      const [visitor] = await tx
        .update(widgetVisitors)
        .set({
          blocked_at: blocked
            ? sql`coalesce(${widgetVisitors.blocked_at}, now())`
            : sql`null::timestamptz`,
        })
        .where(and(eq(widgetVisitors.id, visitorId), eq(widgetVisitors.widget_id, widgetId)))
        .returning();
      return visitor ?? null;
    });
  }

  /**
   * One row per UTC day of the last `days` days, today last, days without use included:
   * messages and tokens from `widget_usage_days`, and the visitors who wrote that day.
   */
  async usage(widgetId: string, days: number): Promise<WidgetUsageDayRow[]> {
    const result = await this.db.execute(sql`
      with span as (
        select g::date as day
        from generate_series(
          (${utcToday} - ${days - 1}::int)::timestamp,
          ${utcToday}::timestamp,
          interval '1 day'
        ) as g
      ),
      owned as (
        select ${widgets.id} as id from ${widgets}
        where ${widgets.id} = ${widgetId} and ${widgets.user_id} = ${this.userId}
      ),
      writers as (
        select (m.created_at at time zone 'UTC')::date as day,
               count(distinct c.visitor_id)::int as visitors
        from ${widgetConversations} c
        join ${widgetMessages} m on m.conversation_id = c.id
        where c.widget_id in (select id from owned)
          and m.role = 'user'
          and m.created_at >= ((${utcToday} - ${days - 1}::int)::timestamp at time zone 'UTC')
        group by 1
      )
      select to_char(span.day, 'YYYY-MM-DD') as day,
             coalesce(u.messages, 0)::int as messages,
             coalesce(u.input_tokens, 0)::int as input_tokens,
             coalesce(u.output_tokens, 0)::int as output_tokens,
             coalesce(writers.visitors, 0)::int as visitors
      from span
      left join ${widgetUsageDays} u
        on u.widget_id in (select id from owned) and u.day = span.day
      left join writers on writers.day = span.day
      order by span.day
    `);
    return rowsOf<WidgetUsageDayRow>(result).map((r) => ({
      day: r.day,
      messages: Number(r.messages),
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
      visitors: Number(r.visitors),
    }));
  }
}
