import { LRUCache } from 'lru-cache';
import { EVERY_KEY, type Invalidation, type InvalidationTopic } from './invalidation.ts';

export type InvalidatedCache<V extends object> = {
  /** The cached value for `key`, or `load()`'s, which is kept unless an invalidation raced it. */
  get(key: string, load: () => Promise<V>): Promise<V>;
};

/**
 * A bounded, expiring cache whose entries every server instance drops on `topic`'s
 * invalidations. A load that began before an invalidation is returned but not kept, so a
 * change is never hidden by a read that was already in flight.
 */
export const invalidatedCache = <V extends object>(
  invalidation: Invalidation,
  topic: InvalidationTopic,
  opts: { ttlMs: number; max: number },
): InvalidatedCache<V> => {
  const cache = new LRUCache<string, V>({ max: opts.max, ttl: opts.ttlMs });
  let epoch = 0;
  invalidation.subscribe(topic, (key) => {
    epoch += 1;
    if (key === EVERY_KEY) cache.clear();
    else cache.delete(key);
  });
  return {
    async get(key, load) {
      const hit = cache.get(key);
      if (hit) return hit;
      const started = epoch;
      const value = await load();
      if (epoch === started) cache.set(key, value);
      return value;
    },
  };
};
