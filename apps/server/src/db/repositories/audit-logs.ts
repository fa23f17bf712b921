import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { AuditLogEntry } from '@chorus/shared/api/audit-logs';
import type { Db, Queryable } from '../client.ts';
import { adminAuditLogs, users } from '../schema/index.ts';

export type AuditEntry = {
  action: string;
  table_name: string;
  record_id: string | null;
  details?: Record<string, unknown>;
  /** Written through `POST /admin/audit-logs` in the admin's own words, not by Chorus itself. */
  posted_by_admin?: boolean;
};

/**
 * Writes one admin action (spec §3: admin_id, action, table_name, record_id, details). Pass the
 * transaction of the change itself, so a change and its audit row stand or fall together.
 */
export const writeAuditLog = async (db: Queryable, adminId: string, entry: AuditEntry) => {
  const [row] = await db
    .insert(adminAuditLogs)
    .values({
      admin_id: adminId,
      action: entry.action,
      table_name: entry.table_name,
      record_id: entry.record_id,
      details: entry.details ?? {},
      posted_by_admin: entry.posted_by_admin ?? false,
    })
    .returning();
  return row!;
};

/** An audit row as the API answers it. */
export const toAuditLogEntry = (
  log: typeof adminAuditLogs.$inferSelect,
  adminEmail: string | null,
): AuditLogEntry => ({
  id: log.id,
  admin_id: log.admin_id,
  admin_email: adminEmail,
  action: log.action,
  table_name: log.table_name,
  record_id: log.record_id,
  details: log.details,
  posted_by_admin: log.posted_by_admin,
  created_at: log.created_at.toISOString(),
});

export type AuditLogFilters = {
  action?: string | undefined;
  table_name?: string | undefined;
  admin_id?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit: number;
  offset: number;
};

/** The audit log across all admins, newest first; admin-only reading. */
export const listAuditLogs = async (
  db: Db,
  f: AuditLogFilters,
): Promise<{ entries: AuditLogEntry[]; total: number; actions: string[]; tables: string[] }> => {
  const where = and(
    f.action ? eq(adminAuditLogs.action, f.action) : undefined,
    f.table_name ? eq(adminAuditLogs.table_name, f.table_name) : undefined,
    f.admin_id ? eq(adminAuditLogs.admin_id, f.admin_id) : undefined,
    f.from ? gte(adminAuditLogs.created_at, f.from) : undefined,
    f.to ? lte(adminAuditLogs.created_at, f.to) : undefined,
  );
  const [rows, [count], actions, tables] = await Promise.all([
    db
      .select({ log: adminAuditLogs, admin_email: users.email })
      .from(adminAuditLogs)
      .leftJoin(users, eq(users.id, adminAuditLogs.admin_id))
      .where(where)
      .orderBy(desc(adminAuditLogs.created_at), desc(adminAuditLogs.id))
      .limit(f.limit)
      .offset(f.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(adminAuditLogs)
      .where(where),
    db
      .selectDistinct({ v: adminAuditLogs.action })
      .from(adminAuditLogs)
      .orderBy(adminAuditLogs.action),
    db
      .selectDistinct({ v: adminAuditLogs.table_name })
      .from(adminAuditLogs)
      .orderBy(adminAuditLogs.table_name),
  ]);
  return {
    total: Number(count?.total ?? 0),
    entries: rows.map(({ log, admin_email }) => toAuditLogEntry(log, admin_email)),
    actions: actions.map((a) => a.v),
    tables: tables.map((t) => t.v),
  };
};
