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
