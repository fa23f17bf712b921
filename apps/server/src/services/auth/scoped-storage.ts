import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An AsyncLocalStorage that is on only while one of its `run`s is in progress.
 *
 * On Node 20, the first `run` of any AsyncLocalStorage turns on a promise hook for the whole
 * process, and it stays on: from then on every promise anywhere pays for it (about 10 % of the
 * server's CPU while replies stream, bench/load.ts with --cpu-prof). better-auth keeps three
 * storages and runs them for each of its own requests, which are rare next to the chat's: this
 * one turns itself off (`disable()`) when its last `run` has ended, and on again at the next.
 *
 * What it changes: a store can be read in the code a `run` awaits, as before; work a `run`
 * started without awaiting and that reads the store after the `run` ended sees none (better-auth
 * then falls back to its adapter outside a transaction).
 */
export class ScopedAsyncLocalStorage<T> extends AsyncLocalStorage<T> {
  #running = 0;

  override run<R>(store: T, callback: () => R): R;
  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R;
  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    this.#running += 1;
    let result: R;
    try {
      result = super.run(store, callback, ...args);
    } catch (error) {
      this.#ended();
      throw error;
    }
    if (isThenable(result)) {
      result.then(
        () => this.#ended(),
        () => this.#ended(),
      );
    } else {
      this.#ended();
    }
    return result;
  }

  /** How many `run`s are in progress (for tests). */
  get running(): number {
    return this.#running;
  }

  #ended(): void {
    this.#running -= 1;
    if (this.#running === 0) this.disable();
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/** better-auth's process-wide context (`@better-auth/core`, context/global). */
type BetterAuthGlobal = { version?: string; epoch?: number; context: Record<string, unknown> };

/** The storages better-auth makes on first use, each with `??=`; ours are there first. */
const storageNames = [
  'adapterAsyncStorage',
  'requestStateAsyncStorage',
  'endpointContextAsyncStorage',
] as const;

/**
 * Gives better-auth scoped storages before it makes its own. Call before its first request;
 * storages it has made already are left as they are.
 */
export const installScopedAuthStorage = (): void => {
  const key = Symbol.for('better-auth:global');
  const holder = globalThis as unknown as Record<symbol, BetterAuthGlobal | undefined>;
  // better-auth fills in its version when it first reads the object.
  const global = (holder[key] ??= { epoch: 1, context: {} });
  for (const name of storageNames) global.context[name] ??= new ScopedAsyncLocalStorage();
};
