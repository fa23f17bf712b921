import { LRUCache } from 'lru-cache';
import type { Role } from '@chorus/shared/roles';
import type { StoredKeys } from '../ai/stored-keys.ts';
import { invalidatedCache, type InvalidatedCache } from './invalidated-cache.ts';
import type { Invalidation } from './invalidation.ts';
import { SESSION_COOKIE_CACHE_SECONDS } from '../services/auth/session-cache.ts';

/** A user's role and suspension as the session middleware needs them on every request. */
export type Access = { role: Role | null; suspended: boolean };

/**
 * The per-request lookups that must not cost a database round trip on the hot path (ARCHITECTURE
 * §11 fast path). Access expires within 5 s, so a suspension takes effect within 5 s on every
 * instance even if its notification is lost; changes are normally seen at once.
 */
export type Caches = {
  access: InvalidatedCache<Access>;
  /** Sealed provider keys per user: decrypted only for the call that uses them. */
  providerKeys: InvalidatedCache<StoredKeys>;
  /**
   * Sessions that ended while a browser may still hold their signed cookie cache: refused at
   * once on every instance, instead of when the cache expires.
   */
  endedSessions: { has(sessionId: string): boolean };
};

export const ACCESS_TTL_MS = 5_000;
const PROVIDER_KEYS_TTL_MS = 60_000;

/** Longer than any signed session cookie cache lives (auth.ts), so no ended session slips by. */
const ENDED_SESSIONS_TTL_MS = 2 * SESSION_COOKIE_CACHE_SECONDS * 1000;

export const createCaches = (invalidation: Invalidation): Caches => {
  const ended = new LRUCache<string, true>({ max: 100_000, ttl: ENDED_SESSIONS_TTL_MS });
  invalidation.subscribe('sessions', (sessionId) => ended.set(sessionId, true));
  return {
    access: invalidatedCache(invalidation, 'access', { ttlMs: ACCESS_TTL_MS, max: 50_000 }),
    providerKeys: invalidatedCache(invalidation, 'keys', {
      ttlMs: PROVIDER_KEYS_TTL_MS,
      max: 50_000,
    }),
    endedSessions: { has: (sessionId) => ended.has(sessionId) },
  };
};
