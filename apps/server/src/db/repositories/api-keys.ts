import { and, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { systemApiKeys, userApiKeys } from '../schema.ts';

export type UserApiKeyRow = typeof userApiKeys.$inferSelect;
/** What may leave the server: never the ciphertext, never the key. */
export type MaskedApiKey = Omit<UserApiKeyRow, 'api_key'>;

const mask = ({ api_key: _secret, ...rest }: UserApiKeyRow): MaskedApiKey => rest;

export class UserApiKeysRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  async list(): Promise<MaskedApiKey[]> {
    const rows = await this.db
      .select()
      .from(userApiKeys)
      .where(eq(userApiKeys.user_id, this.userId));
    return rows.map(mask);
  }

  /** Stores a sealed key (never the plain key) with its hint; one row per provider. */
  async upsert(row: {
    provider: string;
    sealed: string;
    hint: string;
    model: string | null;
  }): Promise<MaskedApiKey> {
    const [saved] = await this.db
      .insert(userApiKeys)
      .values({
        user_id: this.userId,
        provider: row.provider,
        api_key: row.sealed,
        key_hint: row.hint,
        model: row.model,
        source: 'user',
      })
      .onConflictDoUpdate({
        target: [userApiKeys.user_id, userApiKeys.provider],
        set: {
          api_key: row.sealed,
          key_hint: row.hint,
          model: row.model,
          source: 'user',
          updated_at: new Date(),
        },
      })
      .returning();
    return mask(saved!);
  }

  /** The sealed key for server-side use only; callers open it with the secret box. */
  async sealedKey(
    provider: string,
  ): Promise<Pick<UserApiKeyRow, 'api_key' | 'model' | 'source'> | undefined> {
    const [row] = await this.db
      .select({
        api_key: userApiKeys.api_key,
        model: userApiKeys.model,
        source: userApiKeys.source,
      })
      .from(userApiKeys)
      .where(and(eq(userApiKeys.user_id, this.userId), eq(userApiKeys.provider, provider)))
      .limit(1);
    return row;
  }

  async remove(provider: string): Promise<boolean> {
    const deleted = await this.db
      .delete(userApiKeys)
      .where(and(eq(userApiKeys.user_id, this.userId), eq(userApiKeys.provider, provider)))
      .returning({ id: userApiKeys.id });
    return deleted.length > 0;
  }

  /**
   * Gives the user a row for every provider that has an admin `default` key and for which the
   * user has no key yet. The ciphertext is copied as it is; it never leaves the server.
   */
  async copyDefaultKeys(): Promise<string[]> {
    const defaults = await this.db
      .select()
      .from(systemApiKeys)
      .where(eq(systemApiKeys.kind, 'default'));
    if (defaults.length === 0) return [];
    const inserted = await this.db
      .insert(userApiKeys)
      .values(
        defaults.map((d) => ({
          user_id: this.userId,
          provider: d.provider,
          api_key: d.api_key,
          key_hint: d.key_hint,
          model: d.model,
          source: 'default' as const,
        })),
      )
      .onConflictDoNothing()
      .returning({ provider: userApiKeys.provider });
    return inserted.map((r) => r.provider).sort();
  }
}
