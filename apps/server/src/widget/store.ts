import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, gte, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { widgetLimits } from '@chorus/shared/api/widgets';
import type { Db } from '../db/client.ts';
import {
  widgetConversations,
  widgetMessages,
  widgets,
  widgetUsageDays,
  widgetVisitors,
  widgetVisitorSessions,
} from '../db/schema/index.ts';
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
          created_at: new Date(now + 1),
        },
      ])
      .returning({ id: widgetMessages.id, role: widgetMessages.role });
    const userMessageId = [asked, reply].find((m) => m?.role === 'user')!.id;
    const replyId = [asked, reply].find((m) => m?.role === 'assistant')!.id;
    return { conversationId, userMessageId, replyId };
  });

/** The reply's last write, its tokens on the conversation and on the widget's day. */
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
  },
): Promise<void> => {
  const day = utcDate(new Date());
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
    await tx
      .insert(widgetUsageDays)
      .values({
        widget_id: end.widgetId,
        day,
        messages: 1,
        input_tokens: end.inputTokens,
        output_tokens: end.outputTokens,
      })
      .onConflictDoUpdate({
        target: [widgetUsageDays.widget_id, widgetUsageDays.day],
        set: {
          messages: sql`${widgetUsageDays.messages} + 1`,
          input_tokens: sql`${widgetUsageDays.input_tokens} + ${end.inputTokens}`,
          output_tokens: sql`${widgetUsageDays.output_tokens} + ${end.outputTokens}`,
        },
      });
  });
};

/** Tokens spent today and this month (UTC days), for the budget. */
export const tokensSpent = async (
  db: Db,
  widgetId: string,
  now = new Date(),
): Promise<{ today: number; month: number }> => {
  const today = utcDate(now);
  const monthStart = `${today.slice(0, 7)}-01`;
  const [row] = await db
    .select({
      today: sql<string>`coalesce(sum(case when ${widgetUsageDays.day} = ${today} then ${widgetUsageDays.input_tokens} + ${widgetUsageDays.output_tokens} else 0 end), 0)`,
      month: sql<string>`coalesce(sum(${widgetUsageDays.input_tokens} + ${widgetUsageDays.output_tokens}), 0)`,
    })
    .from(widgetUsageDays)
    .where(and(eq(widgetUsageDays.widget_id, widgetId), gte(widgetUsageDays.day, monthStart)));
  return { today: Number(row?.today ?? 0), month: Number(row?.month ?? 0) };
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
