import { describe, expect, it } from 'vitest';
import { ProviderStalledError, stallGuardedFetch } from './stall-guard.ts';

/** A provider that answers headers after `headersAfterMs`, then sends `chunks` and stays open. */
const provider =
  (opts: { headersAfterMs?: number; chunks: string[] }): typeof fetch =>
  (_input, init) =>
    new Promise((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal!.reason));
      if (opts.headersAfterMs === undefined) return;
      setTimeout(() => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            for (const chunk of opts.chunks) controller.enqueue(new TextEncoder().encode(chunk));
          },
        });
        resolve(new Response(body, { status: 200 }));
      }, opts.headersAfterMs);
    });

const readAll = async (res: Response) => {
  let text = '';
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
};

describe('stallGuardedFetch', () => {
  it('fails a request whose response never starts', async () => {
    const guarded = stallGuardedFetch(50, provider({ chunks: [] }));
    await expect(guarded('http://127.0.0.1/x')).rejects.toBeInstanceOf(ProviderStalledError);
  });

  it('fails the body of a response that goes quiet, after what arrived', async () => {
    const guarded = stallGuardedFetch(50, provider({ headersAfterMs: 0, chunks: ['data: 1\n\n'] }));
    const res = await guarded('http://127.0.0.1/x');
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    await expect(reader.read()).rejects.toBeInstanceOf(ProviderStalledError);
  });

  it('passes a response that keeps sending, and lets the caller abort', async () => {
    const whole: typeof fetch = async () => new Response('all of it');
    expect(await readAll(await stallGuardedFetch(50, whole)('http://127.0.0.1/x'))).toBe(
      'all of it',
    );
    const stop = new AbortController();
    const pending = stallGuardedFetch(10_000, provider({ chunks: [] }))('http://127.0.0.1/x', {
      signal: stop.signal,
    });
    stop.abort(new Error('user stopped'));
    await expect(pending).rejects.toThrow('user stopped');
  });
});
