import { eq } from 'drizzle-orm';
import { widgetUnavailableMessage } from '@chorus/shared/api/widgets';
import { users } from '../db/schema/index.ts';
import { emailIdentity } from '../email/identity.ts';
import { widgetBudgetEmail } from '../email/templates/widget-budget.tsx';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { utcDate } from '../quota/quota.ts';
import { claimBudgetNotice, tokensSpent, type WidgetRow } from './store.ts';

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
 * Refuses a message once today's or this month's tokens reach the widget's budget: the visitor
 * reads the polite 'unavailable' message, and the owner gets one e-mail per period (the first
 * request to claim the period sends it; the mail never holds the answer up).
 */
export const checkBudget = async (deps: Deps, widget: WidgetRow): Promise<void> => {
  // One instant for both, so the day counted and the period claimed agree across midnight.
  const now = new Date();
  const spent = spentBudget(widget, await tokensSpent(deps.database.db, widget.id, now), now);
  if (!spent) return;
  if (await claimBudgetNotice(deps.database.db, widget.id, spent.period)) {
    void tellOwner(deps, widget, spent).catch((err: unknown) =>
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err), widgetId: widget.id },
        'the widget budget mail could not be sent',
      ),
    );
  }
  throw new ApiError(403, 'widgets:budget_exhausted', widgetUnavailableMessage);
};
