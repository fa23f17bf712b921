import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { ProviderCallError } from '../ai/model-call.ts';
import { ApiError } from '../http/errors.ts';
import { createProviderScheduler, isRateLimited, retryAfterMs } from './scheduler.ts';

/** Lets every settled promise run its callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

/** A sleep that waits until the test lets it end, and records what it was asked. */
const manualSleep = () => {
  const sleeps: { ms: number; end: () => void }[] = [];
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      sleeps.push({ ms, end: resolve });
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  return { sleeps, sleep };
};

const rateLimited = (retryAfter?: string) =>
  new APICallError({
    message: 'Rate limit exceeded',
    url: 'http://127.0.0.1/openai/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 429,
    responseHeaders: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  });

const serverError = () =>
  new APICallError({
    message: 'Internal error',
    url: 'http://127.0.0.1/openai/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 500,
  });

describe('retryAfterMs', () => {
  it('reads Retry-After in seconds or as an HTTP date, and retry-after-ms', () => {
    expect(retryAfterMs(rateLimited('2'))).toBe(2_000);
    expect(retryAfterMs(rateLimited('0.5'))).toBe(500);
    const inFiveSeconds = new Date(Date.now() + 5_000).toUTCString();
    const fromDate = retryAfterMs(rateLimited(inFiveSeconds))!;
    expect(fromDate).toBeGreaterThan(3_000);
    expect(fromDate).toBeLessThanOrEqual(5_000);
    expect(retryAfterMs(rateLimited(new Date(Date.now() - 60_000).toUTCString()))).toBe(0);
    const ms = new APICallError({
      message: 'slow down',
      url: 'http://127.0.0.1/',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'retry-after-ms': '250', 'retry-after': '9' },
    });
    expect(retryAfterMs(ms)).toBe(250);
  });

  it('is null for a 429 without a wait, and for anything that is not a 429', () => {
    expect(retryAfterMs(rateLimited())).toBeNull();
    expect(isRateLimited(rateLimited())).toBe(true);
    expect(retryAfterMs(rateLimited('soon'))).toBeNull();
    expect(retryAfterMs(serverError())).toBeNull();
    expect(isRateLimited(serverError())).toBe(false);
    expect(isRateLimited(new Error('boom'))).toBe(false);
    expect(isRateLimited(undefined)).toBe(false);
  });

  it('finds the 429 behind the seam’s error and behind a cause', () => {
    const seam = new ProviderCallError('OpenAI is rate limiting', { retryAfterMs: 1_000 });
    expect(seam).toBeInstanceOf(ApiError);
    expect(seam.status).toBe(502);
    expect(seam.code).toBe('provider:failed');
    expect(retryAfterMs(seam)).toBe(1_000);
    expect(isRateLimited(new ProviderCallError('failed', null))).toBe(false);
    expect(retryAfterMs(new Error('wrapped', { cause: rateLimited('3') }))).toBe(3_000);
    expect(isRateLimited(new ApiError(429, 'provider:rate_limited'))).toBe(true);
  });
});

describe('the provider scheduler', () => {
  it('runs at most `concurrency` calls per provider, first come first served', async () => {
    const scheduler = createProviderScheduler({
      concurrency: 2,
      signal: new AbortController().signal,
    });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    const runs = gates.map((gate, i) =>
      scheduler.run('openai', async () => {
        started.push(i);
        await gate.promise;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(scheduler.pending()).toBe(5);
    gates[1]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(scheduler.pending()).toBe(0);
  });

  it('gives each provider a lane of its own', async () => {
    const scheduler = createProviderScheduler({
      concurrency: 1,
      signal: new AbortController().signal,
    });
    const gate = deferred();
    const started: string[] = [];
    const first = scheduler.run('openai', async () => {
      started.push('openai 1');
      await gate.promise;
    });
    const second = scheduler.run('openai', () => Promise.resolve(started.push('openai 2')));
    const other = scheduler.run('anthropic', () => Promise.resolve(started.push('anthropic')));
    await settle();
    expect(started).toEqual(['openai 1', 'anthropic']);
    gate.resolve();
    await Promise.all([first, second, other]);
    expect(started).toEqual(['openai 1', 'anthropic', 'openai 2']);
  });

  it('pauses the whole lane for Retry-After on a 429, then tries the call again first', async () => {
    const { sleeps, sleep } = manualSleep();
    const scheduler = createProviderScheduler({
      concurrency: 1,
      signal: new AbortController().signal,
      sleep,
    });
    const calls: string[] = [];
    let tries = 0;
    const limited = scheduler.run('openai', () => {
      calls.push(`a${++tries}`);
      return tries === 1 ? Promise.reject(rateLimited('2')) : Promise.resolve('a');
    });
    const queued = scheduler.run('openai', () => {
      calls.push('b');
      return Promise.resolve('b');
    });
    await settle();
    expect(sleeps.map((s) => s.ms)).toEqual([2_000]);
    expect(calls).toEqual(['a1']);
    expect(scheduler.pending()).toBe(2);
    sleeps[0]!.end();
    expect(await Promise.all([limited, queued])).toEqual(['a', 'b']);
    expect(calls).toEqual(['a1', 'a2', 'b']);
  });

  it('backs off exponentially with jitter when no wait is named, and gives up after maxAttempts', async () => {
    const { sleeps, sleep } = manualSleep();
    const scheduler = createProviderScheduler({
      concurrency: 4,
      maxAttempts: 4,
      baseDelayMs: 1_000,
      signal: new AbortController().signal,
      sleep,
      random: () => 0,
    });
    let tries = 0;
    const error = rateLimited();
    const run = scheduler
      .run('mistral', () => {
        tries++;
        return Promise.reject(error);
      })
      .catch((e: unknown) => e);
    for (let i = 0; i < 3; i++) {
      await settle();
      sleeps[i]!.end();
    }
    expect(await run).toBe(error);
    expect(tries).toBe(4);
    // Half the doubling ceiling plus up to half again at random: random() = 0 gives the floor.
    expect(sleeps.map((s) => s.ms)).toEqual([500, 1_000, 2_000]);
  });

  it('keeps jittered waits within their ceiling, and a provider’s wait within maxDelayMs', async () => {
    const { sleeps, sleep } = manualSleep();
    const scheduler = createProviderScheduler({
      concurrency: 1,
      maxAttempts: 2,
      baseDelayMs: 1_000,
      maxDelayMs: 30_000,
      signal: new AbortController().signal,
      sleep,
      random: () => 0.999,
    });
    let tries = 0;
    const jittered = scheduler.run('gemini', () =>
      ++tries === 1 ? Promise.reject(rateLimited()) : Promise.resolve(),
    );
    await settle();
    sleeps[0]!.end();
    await jittered;
    let again = 0;
    const capped = scheduler.run('deepseek', () =>
      ++again === 1 ? Promise.reject(rateLimited('3600')) : Promise.resolve(),
    );
    await settle();
    sleeps[1]!.end();
    await capped;
    expect(sleeps[0]!.ms).toBeGreaterThanOrEqual(500);
    expect(sleeps[0]!.ms).toBeLessThanOrEqual(1_000);
    expect(sleeps[1]!.ms).toBe(30_000);
  });

  it('does not retry other failures', async () => {
    const scheduler = createProviderScheduler({
      concurrency: 1,
      signal: new AbortController().signal,
    });
    let tries = 0;
    const error = serverError();
    await expect(
      scheduler.run('openai', () => {
        tries++;
        return Promise.reject(error);
      }),
    ).rejects.toBe(error);
    expect(tries).toBe(1);
    expect(scheduler.pending()).toBe(0);
  });

  it('halves the lane’s concurrency on a 429 and grows it back by one per success', async () => {
    const { sleeps, sleep } = manualSleep();
    const scheduler = createProviderScheduler({
      concurrency: 4,
      signal: new AbortController().signal,
      sleep,
    });
    const running = new Set<string>();
    const gates = new Map<string, ReturnType<typeof deferred<void>>>();
    const task = (name: string) => async () => {
      running.add(name);
      const gate = deferred();
      gates.set(name, gate);
      await gate.promise;
      running.delete(name);
    };
    let limited = false;
    const first = scheduler.run('openai', async () => {
      if (!limited) {
        limited = true;
        throw rateLimited('1');
      }
      await task('a')();
    });
    await settle();
    const others = ['b', 'c', 'd', 'e', 'f'].map((name) => scheduler.run('openai', task(name)));
    await settle();
    expect(running.size).toBe(0);
    sleeps[0]!.end();
    await settle();
    // 4 halved to 2: the call tried again, and the next in line.
    expect([...running]).toEqual(['a', 'b']);
    gates.get('a')!.resolve();
    await settle();
    // One success: 3 at once.
    expect([...running]).toEqual(['b', 'c', 'd']);
    gates.get('b')!.resolve();
    await settle();
    // Another: back to 4, never above.
    expect([...running]).toEqual(['c', 'd', 'e', 'f']);
    for (const gate of gates.values()) gate.resolve();
    await Promise.all([first, ...others]);
  });

  it('runs one at a time after a 429 until a success lets a second in', async () => {
    const { sleeps, sleep } = manualSleep();
    const scheduler = createProviderScheduler({
      concurrency: 2,
      signal: new AbortController().signal,
      sleep,
    });
    const started: number[] = [];
    const gates = Array.from({ length: 4 }, () => deferred());
    let limitedOnce = false;
    const runs = gates.map((gate, i) =>
      scheduler.run('openai', async () => {
        if (i === 0 && !limitedOnce) {
          limitedOnce = true;
          throw rateLimited('1');
        }
        started.push(i);
        await gate.promise;
      }),
    );
    await settle();
    expect(started).toEqual([1]);
    gates[1]!.resolve();
    await settle();
    // The lane is paused: nothing new starts until the wait ends.
    expect(started).toEqual([1]);
    sleeps[0]!.end();
    await settle();
    // Concurrency 2 halved to 1, then +1 for the success of call 1: two at once again.
    expect(started).toEqual([1, 0, 2]);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
  });

  it('rejects waiting calls as soon as the run is stopped, and any call after', async () => {
    const stop = new AbortController();
    const { sleep } = manualSleep();
    const scheduler = createProviderScheduler({ concurrency: 1, signal: stop.signal, sleep });
    const gate = deferred();
    let seen: AbortSignal | undefined;
    const running = scheduler.run('openai', async (signal) => {
      seen = signal;
      await gate.promise;
      signal.throwIfAborted();
    });
    const waiting = scheduler.run('openai', () => Promise.resolve('never'));
    const backingOff = scheduler.run('anthropic', () => Promise.reject(rateLimited('30')));
    await settle();
    stop.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
    await expect(backingOff).rejects.toThrow(/abort/i);
    expect(seen?.aborted).toBe(true);
    gate.resolve();
    await expect(running).rejects.toThrow(/abort/i);
    await expect(scheduler.run('openai', () => Promise.resolve(1))).rejects.toThrow(/abort/i);
    expect(scheduler.pending()).toBe(0);
  });
});
