import { z } from 'zod';
import { isoDateOrDateTimeSchema } from './dates.ts';
import { pageQueryFields } from './paging.ts';

/** One row of `admin_audit_logs` (spec §3) with the acting admin's e-mail. */
export const auditLogEntrySchema = z.object({
  id: z.string(),
  admin_id: z.string(),
  admin_email: z.string().nullable(),
  action: z.string(),
  table_name: z.string(),
  record_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  /**
   * True: an admin posted this entry (`POST /admin/audit-logs`), its action and details in their
   * own words. False: Chorus wrote it when the admin changed something.
   */
  posted_by_admin: z.boolean(),
  created_at: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogsQuerySchema = z.object({
  action: z.string().trim().min(1).max(100).optional(),
  table_name: z.string().trim().min(1).max(100).optional(),
  admin_id: z.string().trim().min(1).max(100).optional(),
  /** Inclusive start (a date means its 00:00 UTC). */
  from: isoDateOrDateTimeSchema.optional(),
  /** Inclusive end (a date means the whole day, UTC). */
  to: isoDateOrDateTimeSchema.optional(),
  ...pageQueryFields,
});
export type AuditLogsQuery = z.infer<typeof auditLogsQuerySchema>;

export const auditLogsResponseSchema = z.object({
  entries: z.array(auditLogEntrySchema),
  total: z.number().int(),
  /** Distinct actions and tables seen so far, for the filters. */
  actions: z.array(z.string()),
  tables: z.array(z.string()),
});
export type AuditLogsResponse = z.infer<typeof auditLogsResponseSchema>;

/** `admin_audit_logs: insert` (spec §7); admins only, anyone else gets spec §6's refusal. */
export const createAuditLogSchema = z.object({
  action: z.string().trim().min(1, 'Name the action').max(100),
  table_name: z.string().trim().min(1, 'Name the table').max(100),
  record_id: z.string().trim().max(200).nullable().optional(),
  details: z
    .record(z.string(), z.unknown())
    .default({})
    .refine((d) => JSON.stringify(d).length <= 10_000, 'details is at most 10 kB of JSON'),
});
export type CreateAuditLog = z.input<typeof createAuditLogSchema>;
