import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { widgetLimits } from '@chorus/shared/api/widgets';
import { rowsOf, type Db } from '../db/client.ts';
import {
  widgetConversations,
  widgetMessages,
  widgets,
  widgetVisitors,
  widgetVisitorSessions,
} from '../db/schema/index.ts';
import { ownerGone } from '../db/repositories/instances.ts';
import { utcDate } from '../quota/quota.ts';

/**
 * The public side's reads and writes (issue 21). Every query names the widget it is about, and
 * every read of a visitor's data names the visitor too: a session of one widget never reaches
 * another widget's rows, nor one visitor another's.
 */

export type WidgetRow = typeof widgets.$inferSelect;
export type VisitorRow = typeof widgetVisitors.$inferSelect;
export type ConversationRow = typeof widgetConversations.$inferSelect;
export type WidgetMessageRow = typeof widgetMessages.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The widget as it is now: read on every request, so a switch-off or removal counts at once. */
export const findWidget = async (db: Db, publicId: string): Promise<WidgetRow | null> => {
  const [row] = await db.select().from(widgets).where(eq(widgets.public_id, publicId));
  return row ?? null;
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A session token the server makes: 32 random bytes. */
const sessionTokenPattern = /^[A-Za-z0-9_-]{43}$/;

const isSessionToken = (token: string | undefined): token is string =>
  token !== undefined && sessionTokenPattern.test(token);

const sessionExpiry = () => new Date(Date.now() + widgetLimits.sessionDays * DAY_MS);

/** A new session for the visitor; only its hash is kept. */
export const mintSession = async (db: Db, widgetId: string, visitorId: string): Promise<string> => {
  const token = randomBytes(32).toString('base64url');
  await db.insert(widgetVisitorSessions).values({
    token_hash: hashToken(token),
    visitor_id: visitorId,
    widget_id: widgetId,
    expires_at: sessionExpiry(),
  });
  return token;
};

/**
 * The visitor of a live session of this widget; null for an unknown, expired or foreign one. A
 * blocked visitor's session is found however old it is, so that it is refused as blocked rather
 * than replaced by a new anonymous visitor.
 */
export const visitorOfSession = async (
  db: Db,
  widgetId: string,
  token: string | undefined,
): Promise<VisitorRow | null> => {
  if (!isSessionToken(token)) return null;
  const [row] = await db
    .select({ visitor: widgetVisitors })
    .from(widgetVisitorSessions)
    .innerJoin(widgetVisitors, eq(widgetVisitors.id, widgetVisitorSessions.visitor_id))
    .where(
      and(
        eq(widgetVisitorSessions.token_hash, hashToken(token)),
        eq(widgetVisitorSessions.widget_id, widgetId),
        eq(widgetVisitors.widget_id, widgetId),
        or(gt(widgetVisitorSessions.expires_at, new Date()), isNotNull(widgetVisitors.blocked_at)),
      ),
    );
  return row?.visitor ?? null;
};

/**
 * A session in use lives `sessionDays` more, and its visitor was seen now, from the network
 * `addressHash` stands for (kept for anonymous visitors only).
 */
export const slideSession = async (
  db: Db,
  token: string,
  visitor: Pick<VisitorRow, 'id' | 'signed'>,
  addressHash: string | null,
): Promise<void> => {
  await Promise.all([
    db
      .update(widgetVisitorSessions)
      .set({ expires_at: sessionExpiry() })
      .where(eq(widgetVisitorSessions.token_hash, hashToken(token))),
    db
      .update(widgetVisitors)
      .set({
        last_seen_at: new Date(),
        ...(!visitor.signed && addressHash !== null && { address_hash: addressHash }),
      })
      .where(eq(widgetVisitors.id, visitor.id)),
  ]);
};

export const createAnonymousVisitor = async (
  db: Db,
  widgetId: string,
  addressHash: string | null,
): Promise<VisitorRow> => {
  const [row] = await db
    .insert(widgetVisitors)
    .values({ widget_id: widgetId, address_hash: addressHash })
    .returning();
  return row!;
};

/**
 * Whether an anonymous visitor of this widget was blocked, less than `hours` ago, coming from the
 * network `addressHash` stands for.
 */
export const addressBlocked = async (
  db: Db,
  widgetId: string,
  addressHash: string,
  hours: number,
): Promise<boolean> => {
  const [row] = await db
    .select({ id: widgetVisitors.id })
    .from(widgetVisitors)
    .where(
      and(
        eq(widgetVisitors.widget_id, widgetId),
        eq(widgetVisitors.address_hash, addressHash),
        isNotNull(widgetVisitors.blocked_at),
        gt(widgetVisitors.blocked_at, new Date(Date.now() - hours * 60 * 60 * 1000)),
      ),
    )
    .limit(1);
  return row !== undefined;
};

/** The host site's visitor, made on first sight; a token's name replaces the one kept. */
export const upsertSignedVisitor = async (
  db: Db,
  widgetId: string,
  externalId: string,
  name: string | null,
): Promise<VisitorRow> => {
  const [row] = await db
    .insert(widgetVisitors)
    .values({ widget_id: widgetId, external_id: externalId, name, signed: true })
    .onConflictDoUpdate({
      target: [widgetVisitors.widget_id, widgetVisitors.external_id],
      targetWhere: sql`${widgetVisitors.external_id} is not null`,
      set: {
        signed: true,
        last_seen_at: new Date(),
        ...(name !== null && { name }),
      },
    })
    .returning();
  return row!;
};

/** The visitor's conversations with this widget, newest first. */
export const visitorConversations = (db: Db, widgetId: string, visitorId: string, limit = 50) =>
  db
    .select({
      id: widgetConversations.id,
      title: widgetConversations.title,
      updated_at: widgetConversations.updated_at,
    })
    .from(widgetConversations)
    .where(
      and(
        eq(widgetConversations.widget_id, widgetId),
        eq(widgetConversations.visitor_id, visitorId),
      ),
    )
    .orderBy(desc(widgetConversations.updated_at), desc(widgetConversations.id))
    .limit(limit);

export const visitorConversation = async (
  db: Db,
  widgetId: string,
  visitorId: string,
  id: string,
): Promise<ConversationRow | null> => {
  const [row] = await db
    .select()
    .from(widgetConversations)
    .where(
      and(
        eq(widgetConversations.id, id),
        eq(widgetConversations.widget_id, widgetId),
        eq(widgetConversations.visitor_id, visitorId),
      ),
    );
  return row ?? null;
};

/** The last `limit` messages of a conversation, oldest first. */
export const lastMessages = async (
  db: Db,
  conversationId: string,
  limit: number,
): Promise<WidgetMessageRow[]> => {
  const rows = await db
    .select()
    .from(widgetMessages)
    .where(eq(widgetMessages.conversation_id, conversationId))
    .orderBy(desc(widgetMessages.created_at), desc(widgetMessages.id))
    .limit(limit);
  return rows.reverse();
};

/** A conversation's title: the start of its first message, on one line. */
export const titleOf = (message: string) => {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
};

/**
 * Stores the visitor's message and the reply about to stream (`streaming`, empty), in the
 * conversation given or a new one. Null when the conversation given is gone.
 */
export const startTurn = async (
  db: Db,
  turn: {
    widgetId: string;
    visitorId: string;
    conversationId: string | null;
    message: string;
    /** The instance streaming the reply (ADR 018). */
    instanceId: string;
  },
): Promise<{ conversationId: string; userMessageId: string; replyId: string } | null> =>
  db.transaction(async (tx) => {
    let conversationId = turn.conversationId;
    if (conversationId === null) {
      const [created] = await tx
        .insert(widgetConversations)
        .values({
          widget_id: turn.widgetId,
          visitor_id: turn.visitorId,
          title: titleOf(turn.message),
          message_count: 2,
        })
        .returning({ id: widgetConversations.id });
      conversationId = created!.id;
    } else {
      const [touched] = await tx
        .update(widgetConversations)
        .set({
          message_count: sql`${widgetConversations.message_count} + 2`,
          updated_at: new Date(),
        })
        .where(
          and(
            eq(widgetConversations.id, conversationId),
            eq(widgetConversations.widget_id, turn.widgetId),
            eq(widgetConversations.visitor_id, turn.visitorId),
          ),
        )
        .returning({ id: widgetConversations.id });
      if (!touched) return null;
    }
    // The reply is a moment younger than the question, so the two always read in order.
    const now = Date.now();
    const [asked, reply] = await tx
      .insert(widgetMessages)
      .values([
        {
          conversation_id: conversationId,
          widget_id: turn.widgetId,
          role: 'user' as const,
          content: turn.message,
          status: 'done' as const,
          created_at: new Date(now),
        },
        {
          conversation_id: conversationId,
          widget_id: turn.widgetId,
          role: 'assistant' as const,
          content: '',
          status: 'streaming' as const,
          instance_id: turn.instanceId,
          created_at: new Date(now + 1),
        },
      ])
      .returning({ id: widgetMessages.id, role: widgetMessages.role });
    const userMessageId = [asked, reply].find((m) => m?.role === 'user')!.id;
    const replyId = [asked, reply].find((m) => m?.role === 'assistant')!.id;
    return { conversationId, userMessageId, replyId };
  });

/**
 * The reply's last write, its tokens on the conversation and on the widget's day, and the end of
 * its hold on the budget: the day it started counts what it spent instead of what it held.
 */
export const finishTurn = async (
  db: Db,
  end: {
    widgetId: string;
    conversationId: string;
    replyId: string;
    content: string;
    status: 'done' | 'failed';
    sources: unknown[];
    inputTokens: number;
    outputTokens: number;
    hold: BudgetHold | null;
  },
): Promise<void> => {
  const day = end.hold?.day ?? utcDate(new Date());
  await db.transaction(async (tx) => {
    await tx
      .update(widgetMessages)
      .set({
        content: end.content,
        status: end.status,
        sources: end.sources,
        input_tokens: end.inputTokens,
        output_tokens: end.outputTokens,
      })
      .where(and(eq(widgetMessages.id, end.replyId), eq(widgetMessages.widget_id, end.widgetId)));
    await tx
      .update(widgetConversations)
      .set({
        input_tokens: sql`${widgetConversations.input_tokens} + ${end.inputTokens}`,
        output_tokens: sql`${widgetConversations.output_tokens} + ${end.outputTokens}`,
        updated_at: new Date(),
      })
      .where(
        and(
          eq(widgetConversations.id, end.conversationId),
          eq(widgetConversations.widget_id, end.widgetId),
        ),
      );
    // The hold goes in the statement that counts the spend, so no reader sees both or neither. A
    // hold released already (its instance was taken for gone) gives nothing back a second time.
    await tx.execute(sql`
      with released as (
        delete from widget_budget_holds
        where id = ${end.hold?.id ?? null}::uuid and widget_id = ${end.widgetId}
        returning tokens
      )
      insert into widget_usage_days as u (widget_id, day, messages, input_tokens, output_tokens)
      values (${end.widgetId}, ${day}, 1, ${end.inputTokens}, ${end.outputTokens})
      on conflict (widget_id, day) do update set
        messages = u.messages + 1,
        input_tokens = u.input_tokens + excluded.input_tokens,
        output_tokens = u.output_tokens + excluded.output_tokens,
        reserved_tokens = greatest(0, u.reserved_tokens - coalesce((select tokens from released), 0))
    `);
  });
};

/** A reply's hold on its widget's budget: the day it counts on and the tokens it holds. */
export type BudgetHold = { id: string; day: string; tokens: number };

/** What a reply may spend at most, as the reservation computes it (see `reserveTokens`). */
export type ReplyMaximum = {
  /** Input tokens known before the history: the message, the instructions, knowledge, tools. */
  inputTokens: number;
  /** The conversation whose stored history goes with the message; null for a new one. */
  conversationId: string | null;
  historyMessages: number;
  /** The longest answer of one model call. */
  outputTokens: number;
  /** Model calls the reply may make (an agent's steps); the hold is at most `cap`. */
  calls: number;
  cap: number;
};

/** The budget as the refusing statement saw it: tokens spent (settled) and held. */
export type BudgetState = {
  today: number;
  month: number;
  heldToday: number;
  heldMonth: number;
};

/**
 * Takes a reply's hold on the widget's budget, or refuses it, in ONE statement: the day's row is
 * locked by the upsert, so of requests racing for the last room exactly those that find room
 * take it, and each holds its maximum until it settles (`finishTurn`) or is released. A reply
 * starts while the day and the month have room left (spent + held below the budget), so the
 * budget is passed by at most one reply's maximum, never by the number of replies in flight.
 *
 * The maximum is the input (known tokens, and the stored history at a token a byte: no tokenizer
 * makes more) plus the longest answer, times the calls the reply may make, at most `cap`.
 */
export const reserveTokens = async (
  db: Db,
  req: {
    widgetId: string;
    daily: number;
    monthly: number;
    maximum: ReplyMaximum;
    instanceId: string;
    ttlMs: number;
    now: Date;
  },
): Promise<{ hold: BudgetHold } | { refused: BudgetState }> => {
  const today = utcDate(req.now);
  const monthStart = `${today.slice(0, 7)}-01`;
  const m = req.maximum;
  const result = await db.execute(sql`
    with other_days as (
      select
        coalesce(sum(input_tokens + output_tokens), 0)::bigint as spent,
        coalesce(sum(reserved_tokens), 0)::bigint as held
      from widget_usage_days
      where widget_id = ${req.widgetId} and day >= ${monthStart}::date and day <> ${today}::date
    ),
    history as (
      select coalesce(sum(octet_length(h.content)), 0)::bigint as bytes
      from (
        select content from widget_messages
        where conversation_id = ${m.conversationId}::uuid and widget_id = ${req.widgetId}
        order by created_at desc, id desc
        limit ${m.historyMessages}
      ) h
    ),
    ask as (
      select least(
        ${m.cap}::bigint,
        (${m.inputTokens} + history.bytes + ${m.outputTokens})
          * ${m.calls}
      )::int as tokens
      from history
    ),
    taken as (
      insert into widget_usage_days as u (widget_id, day, reserved_tokens)
      select ${req.widgetId}, ${today}::date, ask.tokens from ask, other_days
      where ${req.daily} > 0 and other_days.spent + other_days.held < ${req.monthly}
      on conflict (widget_id, day) do update set
        reserved_tokens = u.reserved_tokens + excluded.reserved_tokens
      where u.input_tokens + u.output_tokens + u.reserved_tokens < ${req.daily}
        and (select spent + held from other_days)
          + u.input_tokens + u.output_tokens + u.reserved_tokens < ${req.monthly}
      returning u.day
    ),
    hold as (
      insert into widget_budget_holds (widget_id, day, tokens, instance_id, expires_at)
      select ${req.widgetId}, taken.day, ask.tokens, ${req.instanceId}::uuid,
        now() + make_interval(secs => ${req.ttlMs / 1000})
      from taken, ask
      returning id, day::text as day, tokens
    ),
    today_row as (
      select input_tokens + output_tokens as spent, reserved_tokens as held
      from widget_usage_days where widget_id = ${req.widgetId} and day = ${today}::date
    )
    select h.id, h.day, h.tokens,
      coalesce((select spent from today_row), 0)::bigint as spent_today,
      coalesce((select held from today_row), 0)::bigint as held_today,
      (select spent from other_days) as spent_other,
      (select held from other_days) as held_other
    from (select 1) one left join hold h on true
  `);
  const row = rowsOf<{
    id: string | null;
    day: string | null;
    tokens: number | null;
    spent_today: number | string;
    held_today: number | string;
    spent_other: number | string;
    held_other: number | string;
  }>(result)[0]!;
  if (row.id !== null) {
    return { hold: { id: row.id, day: row.day!, tokens: Number(row.tokens) } };
  }
  const today_ = Number(row.spent_today);
  const heldToday = Number(row.held_today);
  return {
    refused: {
      today: today_,
      month: today_ + Number(row.spent_other),
      heldToday,
      heldMonth: heldToday + Number(row.held_other),
    },
  };
};

/** Gives a hold back whole: its reply never reached the provider. */
export const releaseHold = async (db: Db, hold: BudgetHold): Promise<void> => {
  await db.execute(sql`
    with released as (
      delete from widget_budget_holds where id = ${hold.id}::uuid returning widget_id, day, tokens
    )
    update widget_usage_days u
    set reserved_tokens = greatest(0, u.reserved_tokens - r.tokens)
    from released r
    where u.widget_id = r.widget_id and u.day = r.day
  `);
};

/**
 * Releases the widget's holds no reply will settle: those of an instance whose lease ran out (it
 * stopped or crashed mid-reply) and those older than any reply may run. True when any was.
 */
export const releaseStaleHolds = async (db: Db, widgetId: string): Promise<boolean> => {
  const result = await db.execute(sql`
    with gone as (
      delete from widget_budget_holds h
      where h.widget_id = ${widgetId}
        and (
          h.expires_at <= now()
          or not exists (
            select 1 from server_instances i
            where i.id = h.instance_id and i.lease_expires_at > now()
          )
        )
      returning h.day, h.tokens
    ),
    per_day as (select day, sum(tokens)::int as tokens from gone group by day)
    update widget_usage_days u
    set reserved_tokens = greatest(0, u.reserved_tokens - p.tokens)
    from per_day p
    where u.widget_id = ${widgetId} and u.day = p.day
    returning u.day
  `);
  return rowsOf(result).length > 0;
};

/**
 * Claims the owner's one e-mail for a budget period: true for the one request that moved the
 * widget's `budget_notice_period` to `period`, false for every other (one conditional UPDATE,
 * so two requests at once cannot both claim it).
 */
export const claimBudgetNotice = async (
  db: Db,
  widgetId: string,
  period: string,
): Promise<boolean> => {
  const claimed = await db
    .update(widgets)
    // Keeps the owner's `updated_at`: nothing they set has changed.
    .set({ budget_notice_period: period, updated_at: sql`${widgets.updated_at}` })
    .where(
      and(
        eq(widgets.id, widgetId),
        or(isNull(widgets.budget_notice_period), ne(widgets.budget_notice_period, period)),
      ),
    )
    .returning({ id: widgets.id });
  return claimed.length > 0;
};

/** What a reply cut off by a stopped server shows when nothing of it was saved. */
export const replyCutOffMessage = 'The reply was cut off. Please send your message again.';

/**
 * Replies left `streaming` by an instance that is gone (ADR 018) fail, keeping any text saved,
 * so neither the visitor nor the owner sees one streaming for ever. One statement, so two sweeps
 * never both end a reply.
 */
export const failAbandonedWidgetReplies = async (db: Db): Promise<string[]> => {
  const rows = await db
    .update(widgetMessages)
    .set({
      status: 'failed',
      content: sql`case when ${widgetMessages.content} = '' then ${replyCutOffMessage} else ${widgetMessages.content} end`,
    })
    .where(and(eq(widgetMessages.status, 'streaming'), ownerGone(widgetMessages.instance_id)))
    .returning({ id: widgetMessages.id });
  return rows.map((r) => r.id);
};
