import { describe, expect, it } from 'vitest';
import { cacheTrusted } from './session.ts';

describe('how long a session cookie cache is trusted', () => {
  const madeAt = 1_000_000;

  it('trusts a young cache whatever the feed does', () => {
    expect(cacheTrusted(madeAt, null, madeAt + 4_000)).toBe(true);
    expect(cacheTrusted(madeAt, madeAt + 2_000, madeAt + 5_000)).toBe(true);
  });

  it('trusts an older cache while every ended session since it was made has been heard', () => {
    expect(cacheTrusted(madeAt, madeAt - 60_000, madeAt + 50_000)).toBe(true);
  });

  it('trusts an older cache for 5 s only while the feed is down', () => {
    expect(cacheTrusted(madeAt, null, madeAt + 5_001)).toBe(false);
  });

  it('trusts an older cache for 5 s only when the feed came up after it was made', () => {
    // An announcement may have been missed between the cache and the feed's return.
    expect(cacheTrusted(madeAt, madeAt + 10, madeAt + 5_001)).toBe(false);
    // Another instance's clock may run a little ahead: a second's margin.
    expect(cacheTrusted(madeAt, madeAt - 500, madeAt + 5_001)).toBe(false);
    expect(cacheTrusted(madeAt, madeAt - 1_000, madeAt + 5_001)).toBe(true);
  });
});
