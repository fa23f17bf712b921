import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import {
  accessTokenPrefix,
  testRunLimits,
  type AccessToken,
  type AccessTokenScope,
  type CreateAccessToken,
  type CreatedAccessToken,
} from '@chorus/shared/api/test-runs';
import type { Db } from '../client.ts';
import { accessTokens, users } from '../schema/index.ts';

export type AccessTokenRow = typeof accessTokens.$inferSelect;

/** `chorus_pat_` + 32 random bytes in base64url (43 characters). */
const tokenPattern = new RegExp(`^${accessTokenPrefix}[A-Za-z0-9_-]{43}$`);

/** The only form of a token the database holds. */
export const hashAccessToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const looksLikeAccessToken = (token: string) => tokenPattern.test(token);

/** Enough to tell tokens apart in a list, far too little to use one. */
const hintOf = (token: string) => `${token.slice(0, 15)}…`;

/** `last_used_at` is written at most this often per token. */
export const LAST_USED_EVERY_MS = 60_000;

const day = 24 * 60 * 60 * 1000;

export const toAccessToken = (row: AccessTokenRow): AccessToken => ({
  id: row.id,
  name: row.name,
  hint: row.hint,
  scopes: row.scopes.filter((s): s is AccessTokenScope => s === 'test_runs'),
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  expires_at: row.expires_at?.toISOString() ?? null,
});

/** Not revoked and not expired at `now`. */
const live = (now: Date) =>
  and(
    isNull(accessTokens.revoked_at),
    or(isNull(accessTokens.expires_at), gt(accessTokens.expires_at, now)),
  );

/**
 * A user's personal access tokens (issue 20, for CI). Every query carries the user; the token
 * itself is returned once, when made, and only its SHA-256 is stored.
 */
export class AccessTokensRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /** The live tokens, newest first. */
  async list(now = new Date()): Promise<AccessTokenRow[]> {
    return this.db
      .select()
      .from(accessTokens)
      .where(and(eq(accessTokens.user_id, this.userId), live(now)))
      .orderBy(desc(accessTokens.created_at), desc(accessTokens.id));
  }

  /** The new token, shown this once; 'too_many' when the user holds `tokensPerUser` live ones. */
  async create(
    input: CreateAccessToken,
    now = new Date(),
  ): Promise<CreatedAccessToken | 'too_many'> {
    const token = `${accessTokenPrefix}${randomBytes(32).toString('base64url')}`;
    const row = await this.db.transaction(async (tx) => {
      // Serialises this user's token creation, so the limit holds under parallel calls.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`access_tokens:${this.userId}`}, 0))`,
      );
      const [counted] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(accessTokens)
        .where(and(eq(accessTokens.user_id, this.userId), live(now)));
      if (Number(counted?.n ?? 0) >= testRunLimits.tokensPerUser) {
        return 'too_many' as const;
      }
      const [inserted] = await tx
        .insert(accessTokens)
        .values({
          user_id: this.userId,
          name: input.name,
          token_hash: hashAccessToken(token),
          hint: hintOf(token),
          scopes: ['test_runs'],
          expires_at:
            input.expires_in_days === null
              ? null
              : new Date(now.getTime() + input.expires_in_days * day),
          created_at: now,
        })
        .returning();
      return inserted!;
    });
    return row === 'too_many' ? row : { ...toAccessToken(row), token };
  }

  /** Revokes one of the user's live tokens; false when there is no such token of theirs. */
  async revoke(id: string, now = new Date()): Promise<boolean> {
    const rows = await this.db
      .update(accessTokens)
      .set({ revoked_at: now })
      .where(and(eq(accessTokens.id, id), eq(accessTokens.user_id, this.userId), live(now)))
      .returning({ id: accessTokens.id });
    return rows.length > 0;
  }
}

export type TokenOwner = {
  token: AccessTokenRow;
  user: typeof users.$inferSelect;
};

/**
 * The live token with this hash and its user, or null. Not scoped to a user: this is how a
 * bearer request finds who it acts as.
 */
export const findLiveAccessToken = async (
  db: Db,
  tokenHash: string,
  now = new Date(),
): Promise<TokenOwner | null> => {
  const [row] = await db
    .select({ token: accessTokens, user: users })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.user_id))
    .where(and(eq(accessTokens.token_hash, tokenHash), live(now)))
    .limit(1);
  return row ?? null;
};

/** Notes a use, at most once a minute per token (a CI job polling does not write each time). */
export const touchAccessToken = async (db: Db, id: string, now = new Date()) => {
  await db
    .update(accessTokens)
    .set({ last_used_at: now })
    .where(
      and(
        eq(accessTokens.id, id),
        or(
          isNull(accessTokens.last_used_at),
          lt(accessTokens.last_used_at, new Date(now.getTime() - LAST_USED_EVERY_MS)),
        ),
      ),
    );
};
