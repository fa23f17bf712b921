/** How often a responsive timeout looks at the clock. */
const TICK_MS = 100;
/** The most one look credits: the loop was free at least this long around it. */
const MAX_CREDIT_MS = 2 * TICK_MS;

export type ResponsiveTimeout = {
  /** Stops it; nothing fires after. */
  cancel(): void;
  /** Wall time since it started minus the time credited: how long the event loop was held up. */
  lagMs(): number;
};

/**
 * Calls `onExpire` once `ms` of *responsive* time has passed: time in which this process's event
 * loop turned and could have heard an answer. A timer that fires because the loop was blocked (a
 * CPU-bound burst) or the process was paused (SIGSTOP, a suspended VM) says nothing about the
 * other side; at the next turn its answer may be sitting unread in the socket, and Node runs due
 * timers before it reads sockets. So the wait is counted tick by tick, each tick credited at most
 * MAX_CREDIT_MS whatever the wall clock says, and a timeout that fires means the other side was
 * silent for `ms` while we were listening.
 */
export const responsiveTimeout = (ms: number, onExpire: () => void): ResponsiveTimeout => {
  const started = performance.now();
  let last = started;
  let credited = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    credited += Math.min(now - last, MAX_CREDIT_MS);
    last = now;
    if (credited >= ms) {
      clearInterval(timer);
      onExpire();
    }
  }, TICK_MS);
  timer.unref();
  return {
    cancel: () => clearInterval(timer),
    lagMs: () => Math.max(0, Math.round(performance.now() - started - credited)),
  };
};

/**
 * `work`, or a rejection with `timeoutError()` after `ms` of responsive time (responsiveTimeout);
 * `onTimeout` runs first, to cut what `work` waits on.
 */
export const withinResponsive = <T>(
  work: Promise<T>,
  ms: number,
  timeoutError: (lagMs: number) => Error,
  onTimeout?: () => void,
): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timeout = responsiveTimeout(ms, () => {
      onTimeout?.();
      reject(timeoutError(timeout.lagMs()));
    });
    work.then(
      (value) => {
        timeout.cancel();
        resolve(value);
      },
      (error: unknown) => {
        timeout.cancel();
        reject(error as Error);
      },
    );
  });
