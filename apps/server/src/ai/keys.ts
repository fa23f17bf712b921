import type { KeySource } from '@chorus/shared/api/keys';
import { providers, type ProviderId } from '@chorus/shared/providers';
import { EVERY_KEY } from '../cache/invalidation.ts';
import type { Db } from '../db/client.ts';
import { UserApiKeysRepository } from '../db/repositories/api-keys.ts';
import { SystemKeysRepository } from '../db/repositories/system-keys.ts';
import type { Deps } from '../http/app-env.ts';
import type { Candidate, StoredKeys } from './stored-keys.ts';

export type ResolvedKey = {
  apiKey: string | undefined;
  source: 'explicit' | 'user' | 'default' | 'system' | 'none';
};

type KeyDeps = Pick<Deps, 'database' | 'box' | 'caches' | 'invalidation' | 'log'>;

const loadStoredKeys = async (db: Db, userId: string): Promise<StoredKeys> => {
  const userKeys = new UserApiKeysRepository(db, userId);
  const systemKeys = new SystemKeysRepository(db);
  const [disabled, own, granted, system] = await Promise.all([
    systemKeys.disabledProviders(),
    userKeys.sealedKeys(),
    userKeys.sealedGrantedKeys(),
    systemKeys.sealedKeys('system'),
  ]);
  const candidates: StoredKeys['candidates'] = {};
  const add = (
    source: Candidate['source'],
    rows: { provider: string; api_key: string; key_hint: string }[],
  ) => {
    for (const row of rows) {
      const list = (candidates[row.provider as ProviderId] ??= []);
      list.push({ source, sealed: row.api_key, hint: row.key_hint });
    }
  };
  add('user', own);
  add('default', granted);
  add('system', system);
  return { disabled: [...disabled] as ProviderId[], candidates };
};

/** From the per-user cache: no database round trip on the hot path once a user has called. */
const storedKeysOf = (deps: KeyDeps, userId: string) =>
  deps.caches.providerKeys.get(userId, () => loadStoredKeys(deps.database.db, userId));

/**
 * After any change to a key a user could be served by: theirs (`userId`), or an admin's key or
 * a provider switch (no argument: every user's cached keys).
 */
export const keysChanged = (deps: Pick<Deps, 'invalidation'>, userId?: string) =>
  deps.invalidation.publish('keys', userId ?? EVERY_KEY);

/**
 * The key to call a provider with (ARCHITECTURE §4): an explicit key (key tests only), then the
 * user's own key, then the admin default key granted to the user, then the system key — for an
 * enabled provider only. Ollama needs no key and resolves to `none` when nothing is stored.
 * Null means the provider is disabled or no key is available.
 *
 * A stored key that cannot be opened (KEY_ENCRYPTION_SECRET changed) is skipped, so the next
 * source still serves, and the user is told to add a key rather than shown a server error.
 */
export const resolveProviderKey = async (
  deps: KeyDeps,
  req: { userId: string; provider: ProviderId; explicitKey?: string | undefined },
): Promise<ResolvedKey | null> => {
  const { provider } = req;
  const stored = await storedKeysOf(deps, req.userId);
  if (stored.disabled.includes(provider)) return null;
  const explicit = req.explicitKey?.trim();
  if (explicit) return { apiKey: explicit, source: 'explicit' };
  for (const candidate of stored.candidates[provider] ?? []) {
    try {
      return { apiKey: deps.box.open(candidate.sealed), source: candidate.source };
    } catch {
      deps.log.warn({ provider, source: candidate.source }, 'stored provider key cannot be opened');
    }
  }
  return providers[provider].keyOptional ? { apiKey: undefined, source: 'none' } : null;
};

export type KeyAvailability = {
  provider: ProviderId;
  enabled: boolean;
  source: KeySource | null;
  key_hint: string | null;
};

/**
 * What resolution would pick for each provider, told by hints alone: nothing is decrypted, so
 * nothing secret can leak through the answer.
 */
export const describeProviderKeys = async (
  deps: KeyDeps,
  req: { userId: string; providerIds: readonly ProviderId[] },
): Promise<KeyAvailability[]> => {
  const stored = await storedKeysOf(deps, req.userId);
  return req.providerIds.map((provider) => {
    const enabled = !stored.disabled.includes(provider);
    const first = enabled ? stored.candidates[provider]?.[0] : undefined;
    if (first) return { provider, enabled, source: first.source, key_hint: first.hint };
    const source = enabled && providers[provider].keyOptional ? 'none' : null;
    return { provider, enabled, source, key_hint: null };
  });
};
