import { and, eq, inArray, notExists } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { systemApiKeys, userApiKeyGrants, userApiKeys } from '../schema/index.ts';

export type UserApiKeyRow = typeof userApiKeys.$inferSelect;
/** What may leave the server: never the ciphertext, never the key. */
export type MaskedApiKey = Omit<UserApiKeyRow, 'api_key'>;
/** An admin default key granted to the user, as far as the user may know it. */
export type GrantedKey = {
  provider: string;
  key_hint: string;
  model: string | null;
  updated_at: Date;
};

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
      })
      .onConflictDoUpdate({
        target: [userApiKeys.user_id, userApiKeys.provider],
        set: { api_key: row.sealed, key_hint: row.hint, model: row.model, updated_at: new Date() },
      })
      .returning();
    return mask(saved!);
  }

  /** The user's own sealed keys for server-side use only; callers open them with the secret box. */
  async sealedKeys(
    providers?: string[],
  ): Promise<Pick<UserApiKeyRow, 'provider' | 'api_key' | 'key_hint' | 'model'>[]> {
    return this.db
      .select({
        provider: userApiKeys.provider,
        api_key: userApiKeys.api_key,
        key_hint: userApiKeys.key_hint,
        model: userApiKeys.model,
      })
      .from(userApiKeys)
      .where(
        and(
          eq(userApiKeys.user_id, this.userId),
          providers ? inArray(userApiKeys.provider, providers) : undefined,
        ),
      );
  }

  async remove(provider: string): Promise<boolean> {
    const deleted = await this.db
      .delete(userApiKeys)
      .where(and(eq(userApiKeys.user_id, this.userId), eq(userApiKeys.provider, provider)))
      .returning({ id: userApiKeys.id });
    return deleted.length > 0;
  }

  /**
   * Grants the user every admin `default` key not granted yet, by reference: no ciphertext is
   * copied, so a rotated or deleted admin key takes effect for every grantee at once. Returns the
   * providers newly granted. The user's own keys are untouched and still come first.
   */
  async grantDefaultKeys(): Promise<string[]> {
    const ungranted = await this.db
      .select({ id: systemApiKeys.id, provider: systemApiKeys.provider })
      .from(systemApiKeys)
      .where(
        and(
          eq(systemApiKeys.kind, 'default'),
          notExists(
            this.db
              .select({ id: userApiKeyGrants.id })
              .from(userApiKeyGrants)
              .where(
                and(
                  eq(userApiKeyGrants.user_id, this.userId),
                  eq(userApiKeyGrants.system_key_id, systemApiKeys.id),
                ),
              ),
          ),
        ),
      );
    if (ungranted.length === 0) return [];
    const inserted = await this.db
      .insert(userApiKeyGrants)
      .values(ungranted.map((k) => ({ user_id: this.userId, system_key_id: k.id })))
      .onConflictDoNothing()
      .returning({ system_key_id: userApiKeyGrants.system_key_id });
    const granted = new Set(inserted.map((r) => r.system_key_id));
    return ungranted
      .filter((k) => granted.has(k.id))
      .map((k) => k.provider)
      .sort();
  }

  /** The admin default keys granted to this user, masked. */
  async grantedKeys(): Promise<GrantedKey[]> {
    return (await this.sealedGrantedKeys()).map(({ api_key: _secret, ...rest }) => rest);
  }

  /** The granted default keys with their ciphertext, for server-side use only. */
  async sealedGrantedKeys(providers?: string[]): Promise<(GrantedKey & { api_key: string })[]> {
    return this.db
      .select({
        provider: systemApiKeys.provider,
        api_key: systemApiKeys.api_key,
        key_hint: systemApiKeys.key_hint,
        model: systemApiKeys.model,
        updated_at: systemApiKeys.updated_at,
      })
      .from(userApiKeyGrants)
      .innerJoin(systemApiKeys, eq(systemApiKeys.id, userApiKeyGrants.system_key_id))
      .where(
        and(
          eq(userApiKeyGrants.user_id, this.userId),
          eq(systemApiKeys.kind, 'default'),
          providers ? inArray(systemApiKeys.provider, providers) : undefined,
        ),
      );
  }
}
