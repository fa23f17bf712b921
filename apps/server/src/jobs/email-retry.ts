import { stalePendingMails } from '../db/repositories/email-outbox.ts';
import type { Deps } from '../http/app-env.ts';
import { defineJob } from './queue.ts';

export const EMAIL_RETRY_JOB = 'email-retry';

export type EmailRetryPolicy = {
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** Delay before the second attempt; each later one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
};

/** 1 min, 2, 4, 8: five attempts over about a quarter of an hour, then `failed`. */
export const defaultEmailRetryPolicy: EmailRetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
};

export const retryDelayMs = (policy: EmailRetryPolicy, attempts: number) =>
  Math.min(policy.baseDelayMs * 2 ** Math.max(0, attempts - 1), policy.maxDelayMs);

/**
 * Failed sends come back through the queue after a growing delay until they are used up. The
 * outbox row counts the attempts, so pg-boss itself does not retry a run.
 */
export const emailRetryJob = (policy: EmailRetryPolicy = defaultEmailRetryPolicy) =>
  defineJob<Deps, { outboxId: string }>({
    name: EMAIL_RETRY_JOB,
    title: 'E-mail retries',
    run: async ({ outboxId }, deps) => {
      await deps.mailer.retry(outboxId);
    },
    attach: (queue, deps) =>
      deps.mailer.useRetries(async (outboxId, attempts) => {
        if (attempts >= policy.maxAttempts) return false;
        const startAfter = new Date(Date.now() + retryDelayMs(policy, attempts));
        return (await queue.send(EMAIL_RETRY_JOB, { outboxId }, { startAfter })) !== null;
      }),
  });

/** A mail untouched this long while `pending`, with no retry queued, was cut off by a stop. */
export const STALE_PENDING_MS = 2 * 60_000;

/**
 * Every minute: a mail whose first attempt a crash or a stop cut off (written to the outbox, then
 * nothing) is sent now, instead of staying `pending` for ever. Without SMTP there is nothing to do:
 * mail then waits in the outbox on purpose.
 */
export const emailOutboxSweepJob = defineJob<Deps, object>({
  name: 'email-outbox-sweep',
  title: 'Send e-mails a stop cut off',
  cron: '* * * * *',
  run: async (_data, deps) => {
    if (!deps.mailer.smtpEnabled) return;
    const ids = await stalePendingMails(deps.database.db, new Date(Date.now() - STALE_PENDING_MS));
    for (const id of ids) await deps.mailer.retry(id);
    if (ids.length > 0) deps.log.info({ count: ids.length }, 'stale pending e-mails sent again');
  },
});
