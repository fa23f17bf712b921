import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { responsiveTimeout, withinResponsive } from './responsive-timeout.ts';

/** Holds the event loop, as a CPU-bound burst does. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
};

describe('responsiveTimeout', () => {
  it('does not run out over a blocked event loop before the loop reads what arrived meanwhile', async () => {
    const order: string[] = [];
    const plain = setTimeout(() => order.push('plain 300 ms timer'), 300);
    const responsive = responsiveTimeout(300, () => order.push('responsive 300 ms timeout'));
    // An answer that is ready long before the loop is free again.
    const answer = readFile(import.meta.filename).then(() => order.push('answer'));
    busy(1_000);
    await answer;
    responsive.cancel();
    clearTimeout(plain);
    // A plain timer fires first and would call a live peer silent; the responsive one did not.
    expect(order).toEqual(['plain 300 ms timer', 'answer']);
    expect(responsive.lagMs()).toBeGreaterThanOrEqual(700);
  });

  it('runs out once the loop was free for that long', async () => {
    const started = performance.now();
    const error = await withinResponsive(
      new Promise(() => undefined),
      300,
      (lagMs) => new Error(`silent (lag ${lagMs} ms)`),
    ).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/^silent \(lag \d+ ms\)$/);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('passes on what the work answers, and stops counting', async () => {
    let cut = false;
    expect(
      await withinResponsive(
        Promise.resolve('ok'),
        300,
        () => new Error('late'),
        () => (cut = true),
      ),
    ).toBe('ok');
    await new Promise((r) => setTimeout(r, 500));
    expect(cut).toBe(false);
  });
});
