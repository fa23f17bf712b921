import { messageFor } from '@chorus/shared/error-catalogue';

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
  messageFor('quota:exceeded', {
    limit,
    plan: planName,
    wait: formatWait(nextUtcMidnight(now).getTime() - now.getTime()),
  });
