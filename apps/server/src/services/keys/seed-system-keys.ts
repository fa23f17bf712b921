import type { ProviderId } from '@chorus/shared/providers';
import { maskKey, type SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/client.ts';
import { SystemKeysRepository } from '../../db/repositories/system-keys.ts';
import type { Logger } from '../../logger.ts';

/**
 * Writes each SYSTEM_KEY_<PROVIDER> as the provider's system key, before the server listens.
 * A key already stored unchanged is left alone, so restarts do not touch updated_at. Only
 * provider names are logged.
 */
export const seedSystemKeys = async ({
  db,
  box,
  seeds,
  log,
}: {
  db: Db;
  box: SecretBox;
  seeds: Partial<Record<ProviderId, string>>;
  log: Logger;
}): Promise<{ seeded: ProviderId[]; unchanged: ProviderId[] }> => {
  const entries = Object.entries(seeds) as [ProviderId, string][];
  const repo = new SystemKeysRepository(db);
  const stored = new Map(
    (
      await repo.sealedKeys(
        'system',
        entries.map(([p]) => p),
      )
    ).map((r) => [r.provider, r]),
  );
  const seeded: ProviderId[] = [];
  const unchanged: ProviderId[] = [];
  for (const [provider, raw] of entries) {
    const key = raw.trim();
    const current = stored.get(provider);
    let same = false;
    if (current) {
      try {
        same = box.open(current.api_key) === key;
      } catch {
        same = false;
      }
    }
    if (same) {
      unchanged.push(provider);
      continue;
    }
    await repo.upsert({
      provider,
      kind: 'system',
      sealed: box.seal(key),
      hint: maskKey(key),
      model: current?.model ?? null,
    });
    seeded.push(provider);
  }
  if (entries.length > 0) log.info({ seeded, unchanged }, 'system keys from the environment');
  return { seeded, unchanged };
};
