import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { providerSettings, systemApiKeys } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';

export type SystemKeyRow = typeof systemApiKeys.$inferSelect;
export type SystemKeyKind = SystemKeyRow['kind'];
/** What may leave the server: never the ciphertext, never the key. */
export type MaskedSystemKey = Omit<SystemKeyRow, 'api_key'>;

const mask = ({ api_key: _secret, ...rest }: SystemKeyRow): MaskedSystemKey => rest;

/**
 * The admin-managed keys and provider switches, which belong to the workspace rather than to a
 * user. Reads are shared; every change an admin makes goes through AdminKeysRepository.
 */
export class SystemKeysRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<MaskedSystemKey[]> {
    const rows = await this.db
      .select()
      .from(systemApiKeys)
      .orderBy(systemApiKeys.provider, systemApiKeys.kind);
    return rows.map(mask);
  }

  /** Sealed keys of one kind, for server-side use only. */
  async sealedKeys(kind: SystemKeyKind, providers?: string[]): Promise<SystemKeyRow[]> {
    return this.db
      .select()
      .from(systemApiKeys)
      .where(
        and(
          eq(systemApiKeys.kind, kind),
          providers ? inArray(systemApiKeys.provider, providers) : undefined,
        ),
      );
  }

  /** Providers switched off by an admin. A provider without a settings row is enabled. */
  async disabledProviders(providers?: string[]): Promise<Set<string>> {
    const rows = await this.db
      .select({ provider: providerSettings.provider })
      .from(providerSettings)
      .where(
        and(
          eq(providerSettings.enabled, false),
          providers ? inArray(providerSettings.provider, providers) : undefined,
        ),
      );
    return new Set(rows.map((r) => r.provider));
  }

  /** Writes a key without an acting admin: SYSTEM_KEY_<PROVIDER> seeding at start. */
  async upsert(row: {
    provider: string;
    kind: SystemKeyKind;
    sealed: string;
    hint: string;
    model: string | null;
  }): Promise<MaskedSystemKey> {
    return upsertKey(this.db, row);
  }
}

const upsertKey = async (
  db: Db,
  row: {
    provider: string;
    kind: SystemKeyKind;
    sealed: string;
    hint: string;
    model: string | null;
  },
): Promise<MaskedSystemKey> => {
  // An upsert keeps the row's id, so the grants that reference it follow a rotated key.
  const [saved] = await db
    .insert(systemApiKeys)
    .values({
      provider: row.provider,
      kind: row.kind,
      api_key: row.sealed,
      key_hint: row.hint,
      model: row.model,
    })
    .onConflictDoUpdate({
      target: [systemApiKeys.provider, systemApiKeys.kind],
      set: { api_key: row.sealed, key_hint: row.hint, model: row.model, updated_at: new Date() },
    })
    .returning();
  return mask(saved!);
};

/** Admin changes to keys and providers; each one writes its audit row in the same transaction. */
export class AdminKeysRepository {
  constructor(
    private readonly db: Db,
    private readonly adminId: string,
  ) {}

  async upsertKey(row: {
    provider: string;
    kind: SystemKeyKind;
    sealed: string;
    hint: string;
    model: string | null;
  }): Promise<MaskedSystemKey> {
    return this.db.transaction(async (tx) => {
      const saved = await upsertKey(tx, row);
      await writeAuditLog(tx, this.adminId, {
        action: 'set_api_key',
        table_name: 'system_api_keys',
        record_id: saved.id,
        details: { provider: row.provider, kind: row.kind, key_hint: row.hint, model: row.model },
      });
      return saved;
    });
  }

  async removeKey(provider: string, kind: SystemKeyKind): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(systemApiKeys)
        .where(and(eq(systemApiKeys.provider, provider), eq(systemApiKeys.kind, kind)))
        .returning({ id: systemApiKeys.id, key_hint: systemApiKeys.key_hint });
      if (!deleted) return false;
      await writeAuditLog(tx, this.adminId, {
        action: 'delete_api_key',
        table_name: 'system_api_keys',
        record_id: deleted.id,
        details: { provider, kind, key_hint: deleted.key_hint },
      });
      return true;
    });
  }

  async setProviderEnabled(provider: string, enabled: boolean): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .insert(providerSettings)
        .values({ provider, enabled })
        .onConflictDoUpdate({
          target: providerSettings.provider,
          set: { enabled, updated_at: new Date() },
        });
      await writeAuditLog(tx, this.adminId, {
        action: enabled ? 'enable_provider' : 'disable_provider',
        table_name: 'provider_settings',
        record_id: provider,
        details: { provider, enabled },
      });
    });
  }
}
