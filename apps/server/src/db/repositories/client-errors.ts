import { desc, sql } from 'drizzle-orm';
import type { ClientErrorReport, ClientErrorRow } from '@chorus/shared/api/client-errors';
import type { Db } from '../client.ts';
import { clientErrors } from '../schema/index.ts';

/** Longest user agent kept; browsers send about 150 characters, anything past this is noise. */
const userAgentMaxLength = 512;

/** Stores one report; `userId` is null for a guest. */
export const recordClientError = async (
  db: Db,
  entry: { userId: string | null; userAgent: string | undefined; report: ClientErrorReport },
): Promise<{ id: string }> => {
  const { report } = entry;
  const [row] = await db
    .insert(clientErrors)
    .values({
      user_id: entry.userId,
      kind: report.kind,
      message: report.message,
      stack: report.stack ?? null,
      url: report.url ?? null,
      user_agent: entry.userAgent?.slice(0, userAgentMaxLength) ?? null,
      details: report.details ?? {},
    })
    .returning({ id: clientErrors.id });
  return { id: row!.id };
};

/** Admin-only reading across users, newest first; callers must have passed requireRole('admin'). */
export const listClientErrors = async (
  db: Db,
  opts: { limit: number; offset: number },
): Promise<{ errors: ClientErrorRow[]; total: number }> => {
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(clientErrors)
      .orderBy(desc(clientErrors.created_at), desc(clientErrors.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(clientErrors),
  ]);
  return {
    total: Number(count?.total ?? 0),
    errors: rows.map((r) => ({
      ...r,
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
};
