import { enabledProvidersFallback } from '@chorus/shared/limits';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api-error';
import { createEnabledProvidersClient } from './enabled-providers';
import { CallThrottle, awaitProviderSlot, providerCalls } from './provider-throttle';

describe('the provider throttle', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => {
    providerCalls.reset();
    vi.useRealTimers();
  });

  it('throttles a provider for 5 s after more than 3 calls within 1 s', () => {
    const throttle = new CallThrottle();
    expect([0, 1, 2].map(() => throttle.hit('openai'))).toEqual([0, 0, 0]);
    expect(throttle.hit('anthropic')).toBe(0);
    expect(throttle.hit('openai')).toBe(5000);
    vi.advanceTimersByTime(4999);
    expect(throttle.remainingMs('openai')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(throttle.hit('openai')).toBe(0);
  });

  it('counts only the calls of the last second', () => {
    const throttle = new CallThrottle();
    throttle.hit('gemini');
    throttle.hit('gemini');
    throttle.hit('gemini');
    vi.advanceTimersByTime(1000);
    expect(throttle.hit('gemini')).toBe(0);
  });

  it('makes the fourth quick call to a provider wait 5 s', async () => {
    for (let i = 0; i < 3; i += 1) await awaitProviderSlot('mistral');
    let done = false;
    void awaitProviderSlot('mistral').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(4999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});

describe('the enabled-providers client', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('keeps the answer 60 s', async () => {
    const fetchList = vi.fn(async () => ({ providers: ['openai' as const] }));
    const client = createEnabledProvidersClient(fetchList);
    expect(await client.get()).toEqual(['openai']);
    vi.advanceTimersByTime(59_999);
    await client.get();
    expect(fetchList).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await client.get();
    expect(fetchList).toHaveBeenCalledTimes(2);
  });

  it('asks at most 3 times per second, then not for 5 s', async () => {
    const fetchList = vi.fn(async () => {
      throw new ApiError(503, 'down');
    });
    const client = createEnabledProvidersClient(fetchList);
    for (let i = 0; i < 3; i += 1) await expect(client.get()).rejects.toThrow('down');
    expect(await client.get()).toEqual(enabledProvidersFallback);
    vi.advanceTimersByTime(4999);
    expect(await client.get()).toEqual(enabledProvidersFallback);
    expect(fetchList).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(1);
    await expect(client.get()).rejects.toThrow('down');
  });

  it('answers the spec’s fallback list on a rate limit', async () => {
    const client = createEnabledProvidersClient(async () => {
      throw new ApiError(429, 'Data rate limited. Retry after 5 seconds.');
    });
    expect(await client.get()).toEqual([
      'openai',
      'anthropic',
      'gemini',
      'deepseek',
      'mistral',
      'perplexity',
    ]);
  });
});
