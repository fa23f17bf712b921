import { eq, inArray } from 'drizzle-orm';
import type { AppSettings, SignupMode } from '@chorus/shared/api/settings';
import type { Db } from '../client.ts';
import { appSettings } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';

/** Each key's value as stored (jsonb) and as the API shows it. */
type Values = {
  signup_mode: SignupMode;
  signup_notice: string;
  outbound_allow_hosts: string[];
};
type Key = keyof Values;

const keys = ['signup_mode', 'signup_notice', 'outbound_allow_hosts'] as const satisfies Key[];

const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((entry) => typeof entry === 'string');

/** A stored value of the wrong shape (written by hand, say) reads as the default. */
const readers: { [K in Key]: (v: unknown) => Values[K] } = {
  signup_mode: (v) => (v === 'request' ? 'request' : 'open'),
  signup_notice: (v) => (typeof v === 'string' ? v : ''),
  outbound_allow_hosts: (v) => (isStringList(v) ? v : []),
};

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Instance-wide settings (`app_settings`, one row per key); a missing row is its default. */
export const readAppSettings = async (db: Db): Promise<AppSettings> => {
  const rows = await db
    .select()
    .from(appSettings)
    .where(inArray(appSettings.key, [...keys]));
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const times = rows.map((r) => r.updated_at.getTime());
  return {
    signup_mode: readers.signup_mode(byKey.get('signup_mode')),
    signup_notice: readers.signup_notice(byKey.get('signup_notice')),
    outbound_allow_hosts: readers.outbound_allow_hosts(byKey.get('outbound_allow_hosts')),
    updated_at: times.length ? new Date(Math.max(...times)).toISOString() : null,
  };
};

export const readSignupMode = async (db: Db): Promise<SignupMode> =>
  (await readAppSettings(db)).signup_mode;

/** The admin's allow-list of private hosts for outbound requests; empty (off) by default. */
export const readOutboundAllowHosts = async (db: Db): Promise<string[]> => {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, 'outbound_allow_hosts'));
  return readers.outbound_allow_hosts(row?.value);
};

/** A super admin's change; each changed key is written to the audit log in the same transaction. */
export const updateAppSettings = async (
  db: Db,
  adminId: string,
  patch: Partial<Values>,
): Promise<AppSettings> => {
  await db.transaction(async (tx) => {
    const before = await readAppSettings(tx);
    for (const key of keys) {
      const next = patch[key];
      if (next === undefined || sameValue(next, before[key])) continue;
      await tx
        .insert(appSettings)
        .values({ key, value: next, updated_by: adminId })
        .onConflictDoUpdate({
          target: appSettings.key,
          set: { value: next, updated_by: adminId, updated_at: new Date() },
        });
      await writeAuditLog(tx, adminId, {
        action: 'update_setting',
        table_name: 'app_settings',
        record_id: key,
        details: { key, from: before[key], to: next },
      });
    }
  });
  return readAppSettings(db);
};
