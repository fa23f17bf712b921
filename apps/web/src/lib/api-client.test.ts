import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@chorus/shared/messages';
import { api } from './api-client';
import { globalBlock, setResilienceEnabled } from './resilience/runtime';

const tooMany = (retryAfter: string) =>
  Response.json(
    { error: 'Data rate limited. Retry after 8 seconds.', code: 'rate_limit:exceeded' },
    { status: 429, headers: { 'Retry-After': retryAfter } },
  );

describe('the API client with the resilience layer on', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    setResilienceEnabled(true);
  });
  afterEach(() => {
    setResilienceEnabled(false);
    vi.useRealTimers();
  });

  it('starts the global block on a 429 for the Retry-After time and holds the next call', async () => {
    const fetchSpy = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(tooMany('8'))
      .mockResolvedValue(Response.json({ ok: true }));
    vi.stubGlobal('fetch', fetchSpy);
    await expect(api.get('/rest/v1/profile')).rejects.toThrow(
      'Data rate limited. Retry after 8 seconds.',
    );
    expect(globalBlock.getSnapshot()).toEqual({
      blockedUntil: 8000,
      reason: 'Data rate limited. Retry after 8 seconds.',
    });
    let answer: unknown;
    void api.get('/rest/v1/profile').then((value) => (answer = value));
    await vi.advanceTimersByTimeAsync(7999);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toEqual({ ok: true });
  });

  it('refuses a call that would wait over 10 s with the spec’s message', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(tooMany('30')));
    await expect(api.post('/rest/v1/conversations', {})).rejects.toThrow();
    await expect(api.get('/rest/v1/conversations')).rejects.toThrow(
      messages.rateLimit.waitSeconds(30),
    );
  });

  it('shares one request between identical reads in flight', async () => {
    const fetchSpy = vi.fn<typeof fetch>(async () => Response.json({ n: 1 }));
    vi.stubGlobal('fetch', fetchSpy);
    const [a, b] = await Promise.all([api.get('/rest/v1/x'), api.get('/rest/v1/x')]);
    expect(a).toEqual(b);
    expect(fetchSpy).toHaveBeenCalledOnce();
  });
});

describe('answers index.html asked for early', () => {
  afterEach(() => {
    delete (window as Window & { __chorusEarly?: unknown }).__chorusEarly;
  });

  it('uses an early answer once, for the same URL, instead of asking again', async () => {
    (window as Window & { __chorusEarly?: unknown }).__chorusEarly = {
      '/rest/v1/api-keys/availability': Promise.resolve([{ provider: 'openai' }]),
    };
    const fetchSpy = vi.fn(async () => Response.json([{ provider: 'asked-again' }]));
    vi.stubGlobal('fetch', fetchSpy);
    expect(await api.get('/rest/v1/api-keys/availability')).toEqual([{ provider: 'openai' }]);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(await api.get('/rest/v1/api-keys/availability')).toEqual([{ provider: 'asked-again' }]);
  });

  it('asks the server itself when the early request failed', async () => {
    (window as Window & { __chorusEarly?: unknown }).__chorusEarly = {
      '/rest/v1/profile': Promise.resolve(null),
    };
    const fetchSpy = vi.fn(async () =>
      Response.json({ error: 'Authentication required', code: 'auth:required' }, { status: 401 }),
    );
    vi.stubGlobal('fetch', fetchSpy);
    await expect(api.get('/rest/v1/profile')).rejects.toThrow('Authentication required');
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });
});
