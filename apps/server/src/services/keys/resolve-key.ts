import type { KeySource } from '@chorus/shared/api/keys';
import { providers, type ProviderId } from '@chorus/shared/providers';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/client.ts';
import { UserApiKeysRepository } from '../../db/repositories/api-keys.ts';
import { SystemKeysRepository } from '../../db/repositories/system-keys.ts';
import type { Logger } from '../../logger.ts';

export type ResolvedKey = {
  apiKey: string | undefined;
  source: 'explicit' | 'user' | 'default' | 'system' | 'none';
};

type Candidate = { source: 'user' | 'default' | 'system'; sealed: string; hint: string };

/** Every stored key that could serve each provider for this user, in resolution order. */
const candidatesFor = async (
  db: Db,
  userId: string,
  wanted: ProviderId[],
): Promise<{ disabled: Set<string>; candidates: Map<string, Candidate[]> }> => {
  const userKeys = new UserApiKeysRepository(db, userId);
  const systemKeys = new SystemKeysRepository(db);
  const [disabled, own, granted, system] = await Promise.all([
    systemKeys.disabledProviders(wanted),
    userKeys.sealedKeys(wanted),
    userKeys.sealedGrantedKeys(wanted),
    systemKeys.sealedKeys('system', wanted),
  ]);
  const candidates = new Map<string, Candidate[]>();
  const add = (
    source: Candidate['source'],
    rows: { provider: string; api_key: string; key_hint: string }[],
  ) => {
    for (const row of rows) {
      const list = candidates.get(row.provider) ?? [];
      list.push({ source, sealed: row.api_key, hint: row.key_hint });
      candidates.set(row.provider, list);
    }
  };
  add('user', own);
  add('default', granted);
  add('system', system);
  return { disabled, candidates };
};

/**
 * The key to call a provider with (ARCHITECTURE §4): an explicit key (key tests only), then the
 * user's own key, then the admin default key granted to the user, then the system key — for an
 * enabled provider only. Ollama needs no key and resolves to `none` when nothing is stored.
 * Null means the provider is disabled or no key is available.
 *
 * A stored key that cannot be opened (KEY_ENCRYPTION_SECRET changed) is skipped, so the next
 * source still serves, and the user is told to add a key rather than shown a server error.
 */
export const resolveProviderKey = async ({
  db,
  box,
  userId,
  provider,
  explicitKey,
  log,
}: {
  db: Db;
  box: SecretBox;
  userId: string;
  provider: ProviderId;
  explicitKey?: string | undefined;
  log?: Logger;
}): Promise<ResolvedKey | null> => {
  const { disabled, candidates } = await candidatesFor(db, userId, [provider]);
  if (disabled.has(provider)) return null;
  const explicit = explicitKey?.trim();
  if (explicit) return { apiKey: explicit, source: 'explicit' };
  for (const candidate of candidates.get(provider) ?? []) {
    try {
      return { apiKey: box.open(candidate.sealed), source: candidate.source };
    } catch {
      log?.warn({ provider, source: candidate.source }, 'stored provider key cannot be opened');
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
export const describeProviderKeys = async ({
  db,
  userId,
  providerIds,
}: {
  db: Db;
  userId: string;
  providerIds: readonly ProviderId[];
}): Promise<KeyAvailability[]> => {
  const { disabled, candidates } = await candidatesFor(db, userId, [...providerIds]);
  return providerIds.map((provider) => {
    const enabled = !disabled.has(provider);
    const first = enabled ? candidates.get(provider)?.[0] : undefined;
    if (first) return { provider, enabled, source: first.source, key_hint: first.hint };
    const source = enabled && providers[provider].keyOptional ? 'none' : null;
    return { provider, enabled, source, key_hint: null };
  });
};
