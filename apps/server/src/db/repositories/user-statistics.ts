import { desc, ilike, or, sql } from 'drizzle-orm';
import type { UserStatisticsRow } from '@chorus/shared/api/admin';
import type { Db } from '../client.ts';
import { containsPattern } from '../like.ts';
import { userStatistics } from '../schema.ts';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

/** Admin-only reading across users; callers must have passed requireRole('admin'). */
export const listUserStatistics = async (
  db: Db,
  opts: { limit: number; offset: number; search?: string },
): Promise<{ users: UserStatisticsRow[]; total: number }> => {
  const pattern = opts.search ? containsPattern(opts.search) : null;
  const where = pattern
    ? or(
        ilike(userStatistics.email, pattern),
        ilike(userStatistics.full_name, pattern),
        ilike(userStatistics.public_name, pattern),
      )
    : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(userStatistics)
      .where(where)
      .orderBy(desc(userStatistics.registration_date))
      .limit(opts.limit)
      .offset(opts.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(userStatistics)
      .where(where),
  ]);
  return {
    total: Number(count?.total ?? 0),
    users: rows.map((r) => ({
      ...r,
      suspended_at: iso(r.suspended_at),
      registration_date: iso(r.registration_date)!,
      last_active: iso(r.last_active),
      conversation_count: Number(r.conversation_count),
      message_count: Number(r.message_count),
    })),
  };
};
