import type { Mailer } from '../email/transport.ts';
import type { JobQueue } from './queue.ts';

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

/** Failed sends go to the job queue and come back after a growing delay until they are used up. */
export const registerEmailRetries = async (
  queue: JobQueue,
  mailer: Mailer,
  policy: EmailRetryPolicy = defaultEmailRetryPolicy,
): Promise<void> => {
  await queue.register<{ outboxId: string }>(EMAIL_RETRY_JOB, async ({ outboxId }) => {
    await mailer.retry(outboxId);
  });
  mailer.useRetries(async (outboxId, attempts) => {
    if (attempts >= policy.maxAttempts) return false;
    const startAfter = new Date(Date.now() + retryDelayMs(policy, attempts));
    return (await queue.send(EMAIL_RETRY_JOB, { outboxId }, { startAfter })) !== null;
  });
};
