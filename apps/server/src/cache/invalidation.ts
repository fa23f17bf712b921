import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, FeedState } from '../db/client.ts';
import type { Logger } from '../logger.ts';

/** Also named by the sessions table's trigger (drizzle/0019_session_ended_notice.sql). */
const CHANNEL = 'chorus_invalidate';

/** Every key of a topic at once (an admin key change reaches every user's cached keys). */
export const EVERY_KEY = '*';

/**
 * What the caches of this process hold and other instances may change:
 * - `access`: a user's role and suspension (key: user id);
 * - `keys`: the stored provider keys that could serve a user (key: user id, or EVERY_KEY);
 * - `sessions`: a session that ended (signed out, revoked) before its signed cookie cache did
 *   (key: session id).
 */
export type InvalidationTopic = 'access' | 'keys' | 'sessions';

export type Invalidation = {
  /** Drops `key` of `topic` from the caches of every server instance, this one first. */
  publish(topic: InvalidationTopic, key: string): Promise<void>;
  subscribe(topic: InvalidationTopic, onKey: (key: string) => void): () => void;
  /** Whether other instances' changes reach this one (`unavailable` while the feed is down). */
  health(): 'ok' | 'unavailable';
  /**
   * Since when (epoch ms) every change another instance announced has reached this one: the
   * moment the feed last came up, or null while it is down. A cache made after it has missed
   * nothing.
   */
  heardSince(): number | null;
  close(): Promise<void>;
};

/**
 * Cache invalidation across server instances through PostgreSQL NOTIFY (ARCHITECTURE §8: no
 * per-user state only in memory). Local subscribers hear a change at once; other instances when
 * the notification arrives. Every cache that listens here also expires its entries on its own,
 * so a notification lost while the database was away costs staleness bounded by that TTL.
 */
export const createInvalidation = (database: Database, log: Logger): Invalidation => {
  const subscribers = new Map<InvalidationTopic, Set<(key: string) => void>>();
  const deliver = (topic: InvalidationTopic, key: string) => {
    for (const onKey of subscribers.get(topic) ?? []) onKey(key);
  };
  let closed = false;
  let feed: FeedState = 'up';
  let heardSince: number | null = null;
  // This instance hears its own notifications too; they were delivered here already.
  const self = randomUUID();
  const onFeed = (state: FeedState) => {
    // Changes announced while the feed was down were missed: forget everything cached.
    if (state === 'up' && feed === 'down') {
      for (const topic of ['access', 'keys'] as const) deliver(topic, EVERY_KEY);
    }
    feed = state;
    heardSince = state === 'up' ? (heardSince ?? Date.now()) : null;
  };
  const listening = database
    .listen(
      CHANNEL,
      (payload) => {
        try {
          const { topic, key, from } = JSON.parse(payload) as {
            topic: InvalidationTopic;
            key: string;
            from: string;
          };
          if (from !== self) deliver(topic, key);
        } catch {
          // Not ours: ignore.
        }
      },
      onFeed,
    )
    .catch((err: unknown) => {
      log.warn({ err }, 'cache invalidation cannot listen; caches rely on their TTL');
      return undefined;
    });

  return {
    async publish(topic, key) {
      deliver(topic, key);
      try {
        await database.db.execute(
          sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ topic, key, from: self })})`,
        );
      } catch (err) {
        log.warn({ err, topic }, 'cache invalidation could not reach other instances');
      }
    },
    health: () => (feed === 'up' ? 'ok' : 'unavailable'),
    heardSince: () => heardSince,
    subscribe(topic, onKey) {
      const set = subscribers.get(topic) ?? new Set();
      set.add(onKey);
      subscribers.set(topic, set);
      return () => set.delete(onKey);
    },
    async close() {
      if (closed) return;
      closed = true;
      const unlisten = await listening;
      await unlisten?.();
    },
  };
};
