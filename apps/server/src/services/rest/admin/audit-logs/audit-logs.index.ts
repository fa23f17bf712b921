import {
  listAuditLogs,
  toAuditLogEntry,
  writeAuditLog,
} from '../../../../db/repositories/audit-logs.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { createAuditLogRoute, listAuditLogsRoute } from './audit-logs.routes.ts';

/** A date alone means the whole UTC day: `from` its first and `to` its last millisecond. */
const bound = (value: string | undefined, edge: 'start' | 'end'): Date | undefined => {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`);
  }
  return new Date(value);
};

export const adminAuditLogsRouter = createRouter<AuthedEnv>()
  .openapi(listAuditLogsRoute, async (c) => {
    const q = c.req.valid('query');
    const from = bound(q.from, 'start');
    const to = bound(q.to, 'end');
    if (from && to && from > to) {
      throw new ApiError(400, 'audit_logs:bad_range');
    }
    return c.json(await listAuditLogs(c.var.deps.database.db, { ...q, from, to }), 200);
  })
  .openapi(createAuditLogRoute, async (c) => {
    const body = c.req.valid('json');
    const row = await writeAuditLog(c.var.deps.database.db, c.var.user.id, {
      action: body.action,
      table_name: body.table_name,
      record_id: body.record_id ?? null,
      details: body.details,
      // Marked as the admin's own words, so it never reads like an entry Chorus wrote.
      posted_by_admin: true,
    });
    return c.json(toAuditLogEntry(row, c.var.user.email), 201);
  });
