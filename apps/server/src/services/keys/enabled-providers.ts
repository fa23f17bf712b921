import { enabledProvidersCacheMs } from '@chorus/shared/limits';
import { providerIds, type ProviderId } from '@chorus/shared/providers';
import type { Db } from '../../db/client.ts';
import { SystemKeysRepository } from '../../db/repositories/system-keys.ts';

type Entry = { at: number; providers: ProviderId[] };

/**
 * The enabled list is the same for everyone, so one entry per database serves all users for
 * 60 s (spec §9). Keyed by the database so that two apps in one process never share answers.
 * Another server instance sees an admin's change when its own entry expires.
 */
const cache = new WeakMap<Db, Entry>();

export const listEnabledProviders = async (db: Db, now = Date.now()): Promise<ProviderId[]> => {
  const hit = cache.get(db);
  if (hit && now - hit.at < enabledProvidersCacheMs) return hit.providers;
  const disabled = await new SystemKeysRepository(db).disabledProviders();
  const enabled = providerIds.filter((id) => !disabled.has(id));
  cache.set(db, { at: now, providers: enabled });
  return enabled;
};

/** Called after an admin switches a provider on or off. */
export const invalidateEnabledProviders = (db: Db) => {
  cache.delete(db);
};
