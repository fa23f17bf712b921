import { planMessages } from '@chorus/shared/messages';
import { providers, type ProviderId } from '@chorus/shared/providers';
import type { Db } from '../db/client.ts';
import { findPlanForUser } from '../db/repositories/pricing-plans.ts';
import { UsageRepository, type UsageEventInput } from '../db/repositories/usage.ts';
import { ApiError } from '../http/errors.ts';
import type { Logger } from '../logger.ts';

/** The UTC date quotas count on, YYYY-MM-DD. */
export const utcDate = (now: Date): string => now.toISOString().slice(0, 10);

/** The next 00:00 UTC after `now`: when today's count starts again from zero. */
export const nextUtcMidnight = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

/** "5 h 12 min", "12 min", "1 min": time until the reset, rounded up to the minute. */
export const formatWait = (ms: number): string => {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} min`;
  return m === 0 ? `${h} h` : `${h} h ${m} min`;
};

export const quotaExceededMessage = (limit: number, planName: string, now: Date): string =>
  planMessages.quotaExceeded(
    limit,
    planName,
    formatWait(nextUtcMidnight(now).getTime() - now.getTime()),
  );

/**
 * Checks the caller's plan before a provider is called: the provider and model must be allowed,
 * and one prompt is counted for today, atomically, unless the daily limit is reached.
 *
 * Refusals are 403, not 429: a spent daily allowance is not a transient rate limit to retry
 * after a pause, and the web treats any 429 as a global rate-limit block of the whole app.
 */
export const chargePrompt = async (opts: {
  db: Db;
  userId: string;
  provider: ProviderId;
  model: string;
  now?: Date;
}): Promise<void> => {
  const now = opts.now ?? new Date();
  const plan = await findPlanForUser(opts.db, opts.userId);
  if (plan.allowed_providers.length > 0 && !plan.allowed_providers.includes(opts.provider)) {
    throw new ApiError(
      403,
      'quota:provider_not_allowed',
      planMessages.providerNotAllowed(providers[opts.provider].name, plan.name),
    );
  }
  if (plan.allowed_models.length > 0 && !plan.allowed_models.includes(opts.model)) {
    throw new ApiError(
      403,
      'quota:model_not_allowed',
      planMessages.modelNotAllowed(opts.model, plan.name),
    );
  }
  const counted = await new UsageRepository(opts.db, opts.userId).consumePrompt(
    utcDate(now),
    plan.daily_prompt_limit,
  );
  if (counted === null) {
    throw new ApiError(
      403,
      'quota:exceeded',
      quotaExceededMessage(plan.daily_prompt_limit ?? 0, plan.name, now),
    );
  }
};

type Usage = { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined;

/**
 * One usage_events row per AI call, written once whatever way the call ends (finish, abort or
 * error can each report it). A failure to write is logged, never shown to the user.
 */
export const usageRecorder = (opts: {
  db: Db;
  userId: string;
  kind: UsageEventInput['kind'];
  provider: string;
  model: string | null;
  log: Logger;
}) => {
  let recorded = false;
  return (status: UsageEventInput['status'], usage?: Usage): Promise<void> => {
    if (recorded) return Promise.resolve();
    recorded = true;
    return new UsageRepository(opts.db, opts.userId)
      .record({
        kind: opts.kind,
        provider: opts.provider,
        model: opts.model,
        input_tokens: usage?.inputTokens ?? 0,
        output_tokens: usage?.outputTokens ?? 0,
        status,
      })
      .catch((err: unknown) => opts.log.error({ err }, 'recording usage failed'));
  };
};
