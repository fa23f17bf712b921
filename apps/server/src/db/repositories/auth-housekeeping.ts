import { lt, sql } from 'drizzle-orm';
import { rowsOf, type Queryable } from '../client.ts';
import { sessions, verifications } from '../schema/index.ts';

/**
 * Deletes sessions and verification tokens (password reset, invitations) past their expiry, in
 * one statement. better-auth refuses them already; this keeps the tables from growing forever.
 */
export const pruneExpiredAuthRows = async (db: Queryable, now = new Date()) => {
  const [counts] = rowsOf<{ sessions: number; verifications: number }>(
    await db.execute(sql`
      with s as (delete from ${sessions} where ${lt(sessions.expiresAt, now)} returning 1),
           v as (delete from ${verifications} where ${lt(verifications.expiresAt, now)} returning 1)
      select (select count(*) from s)::int as sessions,
             (select count(*) from v)::int as verifications`),
  );
  return {
    sessions: Number(counts?.sessions ?? 0),
    verifications: Number(counts?.verifications ?? 0),
  };
};
