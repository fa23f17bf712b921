// The admin's allow-list of private hosts (issue 18 point 6) as outbound requests read it: web
// fetch, HTTP tools, MCP and the agent runtime ask here before each request, so a change is seen
// within ALLOW_LIST_TTL_MS on every instance, and at once on the instance that saved it.
import { readOutboundAllowHosts } from '../db/repositories/app-settings.ts';
import type { Deps } from '../http/app-env.ts';
import { isValidAllowEntry, type AllowList } from './address-check.ts';

export const ALLOW_LIST_TTL_MS = 5_000;

type Cached = { expiresAt: number; list: Promise<AllowList> };

// Keyed by the database, so each test app (and each server) keeps its own.
const cache = new WeakMap<object, Cached>();

/** The allow-list now in force; read from the settings at most every few seconds. */
export const readOutboundAllowList = (deps: Pick<Deps, 'database'>): Promise<AllowList> => {
  const now = Date.now();
  const hit = cache.get(deps.database);
  if (hit && hit.expiresAt > now) return hit.list;
  const list = readOutboundAllowHosts(deps.database.db).then((hosts) => ({ hosts }));
  cache.set(deps.database, { expiresAt: now + ALLOW_LIST_TTL_MS, list });
  // A failed read is not kept: the next request tries again.
  list.catch(() => {
    if (cache.get(deps.database)?.list === list) cache.delete(deps.database);
  });
  return list;
};

/** Forgets the cached list on this instance, after the admin changed it here. */
export const forgetOutboundAllowList = (deps: Pick<Deps, 'database'>): void => {
  cache.delete(deps.database);
};

/** The first entry that is none of host name, address or CIDR; undefined when all are. */
export const findBadAllowEntry = (hosts: readonly string[]): string | undefined =>
  hosts.find((entry) => !isValidAllowEntry(entry));

/** Trimmed, without repeats (case aside), in the order given. */
export const normalizeAllowEntries = (hosts: readonly string[]): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of hosts) {
    const entry = raw.trim();
    const key = entry.toLowerCase();
    if (!entry || seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
};
