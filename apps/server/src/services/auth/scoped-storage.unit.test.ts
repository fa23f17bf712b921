import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { installScopedAuthStorage, ScopedAsyncLocalStorage } from './scoped-storage.ts';

describe('ScopedAsyncLocalStorage', () => {
  it('keeps the store across the awaits of a run, and each concurrent run its own', async () => {
    const storage = new ScopedAsyncLocalStorage<string>();
    const read = async (name: string, ms: number) =>
      storage.run(name, async () => {
        await sleep(ms);
        const first = storage.getStore();
        await Promise.resolve();
        return [first, storage.getStore()];
      });
    const [a, b] = await Promise.all([read('a', 20), read('b', 5)]);
    expect(a).toEqual(['a', 'a']);
    expect(b).toEqual(['b', 'b']);
    expect(storage.running).toBe(0);
  });

  it('turns itself off when its last run ends, where a plain storage stays on', async () => {
    const late = async (storage: AsyncLocalStorage<string>) => {
      let seen: string | undefined = 'not read';
      let read!: () => void;
      const done = new Promise<void>((resolve) => (read = resolve));
      await storage.run('request', async () => {
        // Work the run starts and does not wait for.
        setTimeout(() => {
          seen = storage.getStore();
          read();
        }, 10);
        await Promise.resolve();
      });
      await done;
      return seen;
    };
    expect(await late(new AsyncLocalStorage<string>())).toBe('request');
    expect(await late(new ScopedAsyncLocalStorage<string>())).toBeUndefined();
  });

  it('stays on while another run is in progress, and comes back on at the next run', async () => {
    const storage = new ScopedAsyncLocalStorage<string>();
    let release!: () => void;
    const long = storage.run('long', () => new Promise<void>((resolve) => (release = resolve)));
    await storage.run('short', async () => undefined);
    expect(storage.running).toBe(1);
    const seenInLong = await new Promise<string | undefined>((resolve) =>
      storage.run('long-2', () => setTimeout(() => resolve(storage.getStore()), 5)),
    );
    expect(seenInLong).toBe('long-2');
    release();
    await long;
    expect(storage.running).toBe(0);
    expect(await storage.run('again', async () => storage.getStore())).toBe('again');
  });

  it('ends a run that throws or rejects, and the caller still gets the error', async () => {
    const storage = new ScopedAsyncLocalStorage<string>();
    expect(() =>
      storage.run('x', () => {
        throw new Error('sync');
      }),
    ).toThrow('sync');
    await expect(
      storage.run('y', async () => {
        throw new Error('async');
      }),
    ).rejects.toThrow('async');
    expect(storage.running).toBe(0);
  });
});

describe('installScopedAuthStorage', () => {
  it('puts scoped storages where better-auth looks for its own, and keeps ones already there', () => {
    const key = Symbol.for('better-auth:global');
    const holder = globalThis as unknown as Record<symbol, unknown>;
    const before = holder[key];
    try {
      const existing = new AsyncLocalStorage();
      holder[key] = { epoch: 1, context: { adapterAsyncStorage: existing } };
      installScopedAuthStorage();
      const { context } = holder[key] as { context: Record<string, unknown> };
      expect(context.adapterAsyncStorage).toBe(existing);
      expect(context.requestStateAsyncStorage).toBeInstanceOf(ScopedAsyncLocalStorage);
      expect(context.endpointContextAsyncStorage).toBeInstanceOf(ScopedAsyncLocalStorage);
    } finally {
      holder[key] = before;
    }
  });
});
