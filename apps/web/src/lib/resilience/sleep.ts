/** Resolves after `ms`; fake timers in tests drive it. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** min(base × 2^attempt, max): attempt 0 waits `base`. */
export const backoffMs = (attempt: number, baseMs: number, maxMs: number): number =>
  Math.min(baseMs * 2 ** attempt, maxMs);
