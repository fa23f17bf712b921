import { eq } from 'drizzle-orm';
import { agentLimits } from '@chorus/shared/api/agents';
import { knowledgeLimits } from '@chorus/shared/api/knowledge';
import { widgetLimits, widgetUnavailableMessage } from '@chorus/shared/api/widgets';
import { users } from '../db/schema/index.ts';
import { emailIdentity } from '../email/identity.ts';
import { widgetBudgetEmail } from '../email/templates/widget-budget.tsx';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { utcDate } from '../quota/quota.ts';
import type { WidgetTarget } from './session.ts';
import {
  claimBudgetNotice,
  releaseStaleHolds,
  reserveTokens,
  type BudgetHold,
  type ReplyMaximum,
  type WidgetRow,
} from './store.ts';

export type { BudgetHold };

/** Which budget is spent, and the period its owner's one e-mail is for; null while within both. */
export const spentBudget = (
  widget: Pick<WidgetRow, 'daily_tokens' | 'monthly_tokens'>,
  spent: { today: number; month: number },
  now = new Date(),
): { budget: 'daily' | 'monthly'; period: string; tokens: number } | null => {
  const day = utcDate(now);
  if (spent.month >= widget.monthly_tokens) {
    return { budget: 'monthly', period: day.slice(0, 7), tokens: widget.monthly_tokens };
  }
  if (spent.today >= widget.daily_tokens) {
    return { budget: 'daily', period: day, tokens: widget.daily_tokens };
  }
  return null;
};

/** The owner's mail about a spent budget, queued through the outbox like other notifications. */
const tellOwner = async (
  deps: Deps,
  widget: WidgetRow,
  spent: NonNullable<ReturnType<typeof spentBudget>>,
) => {
  const [owner] = await deps.database.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, widget.user_id));
  if (!owner) return;
  const mail = await widgetBudgetEmail({
    identity: emailIdentity(deps.config),
    notice: {
      to: owner.email,
      widgetName: widget.name,
      budget: spent.budget,
      tokens: spent.tokens,
    },
  });
  await deps.mailer.send(mail);
};

/**
 * A hold outlives its reply by this at most: no reply runs longer than an agent run (the same
 * bound that shows a reply still `streaming` after it as cut off).
 */
export const HOLD_TTL_MS = agentLimits.runTimeoutMs + 60_000;

/**
 * Knowledge a reply may be given: its passages (chunks of 400 tokens and their overlap, as
 * another provider's tokenizer may count twice that) and their framing.
 */
const KNOWLEDGE_TOKENS = knowledgeLimits.chatTopK * 2 * 460 + 300;
/** One tool's definition, sent with every call of an agent's reply. */
const TOOL_TOKENS = 300;
/** Roles and framing around the messages. */
const FRAMING_TOKENS = 100;

/** A token a byte: no tokenizer makes more tokens of a text than it has bytes. */
const byteTokens = (text: string) => Buffer.byteLength(text, 'utf8');

/** The longest answer of one model call of the widget's reply. */
export const replyTokenLimit = (widget: WidgetRow, target: WidgetTarget): number => {
  const own = target.kind === 'custom_ai' ? target.customAi.max_tokens : null;
  return Math.min(widget.max_reply_tokens, own ?? widget.max_reply_tokens);
};

/**
 * The most a reply to `message` may spend, as its hold on the budget: its input (the message, the
 * instructions and the stored history at a token a byte, room for knowledge and tool
 * definitions) and its longest answer, for each model call it may make (an agent's steps), at
 * most an agent run's token budget. An agent's reply stops once it has spent its hold.
 */
export const replyMaximum = (
  widget: WidgetRow,
  target: WidgetTarget,
  req: { message: string; conversationId: string | null },
): ReplyMaximum => {
  const instructions =
    target.kind === 'agent' ? target.agent.instructions : target.customAi.system_prompt;
  const bases =
    target.kind === 'agent' ? target.agent.knowledge_base_ids : target.customAi.knowledge_base_ids;
  const tools = target.kind === 'agent' ? widget.allowed_tools.length : 0;
  return {
    inputTokens:
      byteTokens(req.message) +
      byteTokens(instructions) +
      (bases.length > 0 ? KNOWLEDGE_TOKENS : 0) +
      tools * TOOL_TOKENS +
      FRAMING_TOKENS,
    conversationId: req.conversationId,
    historyMessages: widgetLimits.historyTurns * 2,
    outputTokens: replyTokenLimit(widget, target),
    calls: target.kind === 'agent' ? Math.max(1, target.agent.max_steps) : 1,
    cap: agentLimits.tokenBudget,
  };
};

/** Seconds a visitor is asked to wait while the budget's room is held by replies in flight. */
const BUSY_RETRY_SECONDS = 5;

/**
 * Holds the reply's maximum on today's and this month's budget before anything is called
 * (docs/SECURITY.md "Budgets under races"); the reply's end settles it (`finishTurn`), and a
 * reply that never starts gives it back (`releaseHold`).
 *
 * Refused once the tokens spent reach the budget: the visitor reads the polite 'unavailable'
 * message, and the owner gets one e-mail per period (the first request to claim the period sends
 * it; the mail never holds the answer up). While the room left is held by replies in flight, the
 * visitor is asked to wait a moment instead; holds no reply will settle (a stopped instance's,
 * or older than any reply) are released first.
 */
export const reserveBudget = async (
  deps: Deps,
  widget: WidgetRow,
  maximum: ReplyMaximum,
): Promise<BudgetHold> => {
  const db = deps.database.db;
  // One instant for all, so the day counted and the period claimed agree across midnight.
  const now = new Date();
  const reserve = () =>
    reserveTokens(db, {
      widgetId: widget.id,
      daily: widget.daily_tokens,
      monthly: widget.monthly_tokens,
      maximum,
      instanceId: deps.instance.id,
      ttlMs: HOLD_TTL_MS,
      now,
    });
  let answer = await reserve();
  if ('refused' in answer && !spentBudget(widget, answer.refused, now)) {
    if (await releaseStaleHolds(db, widget.id)) answer = await reserve();
  }
  if ('hold' in answer) return answer.hold;
  const spent = spentBudget(widget, answer.refused, now);
  if (!spent) {
    throw new ApiError(429, 'widgets:busy', undefined, {
      'Retry-After': String(BUSY_RETRY_SECONDS),
    });
  }
  if (await claimBudgetNotice(db, widget.id, spent.period)) {
    void tellOwner(deps, widget, spent).catch((err: unknown) =>
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), widgetId: widget.id },
        'the widget budget mail could not be sent',
      ),
    );
  }
  throw new ApiError(403, 'widgets:budget_exhausted', widgetUnavailableMessage);
};
