import { inArray } from 'drizzle-orm';
import type { AppSettings, SignupMode } from '@chorus/shared/api/settings';
import type { Db } from '../client.ts';
import { appSettings } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';

const keys = ['signup_mode', 'signup_notice'] as const;
type Key = (typeof keys)[number];

const defaults: Record<Key, string> = { signup_mode: 'open', signup_notice: '' };

/** Instance-wide settings (`app_settings`, one row per key); a missing row is its default. */
export const readAppSettings = async (db: Db): Promise<AppSettings> => {
  const rows = await db
    .select()
    .from(appSettings)
    .where(inArray(appSettings.key, [...keys]));
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const value = (key: Key) => {
    const v = byKey.get(key)?.value;
    return typeof v === 'string' ? v : defaults[key];
  };
  const mode = value('signup_mode');
  const times = rows.map((r) => r.updated_at.getTime());
  return {
    signup_mode: mode === 'request' ? 'request' : 'open',
    signup_notice: value('signup_notice'),
    updated_at: times.length ? new Date(Math.max(...times)).toISOString() : null,
  };
};

export const readSignupMode = async (db: Db): Promise<SignupMode> =>
  (await readAppSettings(db)).signup_mode;

/** A super admin's change; each changed key is written to the audit log in the same transaction. */
export const updateAppSettings = async (
  db: Db,
  adminId: string,
  patch: Partial<Record<Key, string>>,
): Promise<AppSettings> => {
  await db.transaction(async (tx) => {
    const before = await readAppSettings(tx);
    for (const key of keys) {
      const next = patch[key];
      if (next === undefined || next === before[key]) continue;
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
