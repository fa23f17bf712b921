import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type {
  EmailOutboxItem,
  EmailOutboxQuery,
  EmailOutboxSummary,
} from '@chorus/shared/api/email';
import { rowsOf, type Db } from '../client.ts';
import { writeAuditLog } from './audit-logs.ts';
import { emailOutbox } from '../schema/index.ts';

type OutboxRow = typeof emailOutbox.$inferSelect;

const summary = (row: OutboxRow): EmailOutboxSummary => ({
  id: row.id,
  to: row.to,
  from: row.from,
  reply_to: row.reply_to,
  subject: row.subject,
  template: row.template,
  status: row.status,
  attempts: row.attempts,
  last_error: row.last_error,
  created_at: row.created_at.toISOString(),
  sent_at: row.sent_at?.toISOString() ?? null,
});

const item = (row: OutboxRow): EmailOutboxItem => ({
  ...summary(row),
  html: row.html,
  text: row.text,
});

/** The back office's view of `email_outbox` (admins only; not user-owned data). */
export class EmailOutboxRepository {
  constructor(private readonly db: Db) {}

  async list(query: EmailOutboxQuery): Promise<{ emails: EmailOutboxSummary[]; total: number }> {
    const where: SQL | undefined = query.status ? eq(emailOutbox.status, query.status) : undefined;
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(emailOutbox)
        .where(where)
        .orderBy(desc(emailOutbox.created_at), desc(emailOutbox.id))
        .limit(query.limit)
        .offset(query.offset),
      this.db.select({ total: count() }).from(emailOutbox).where(where),
    ]);
    return { emails: rows.map(summary), total: Number(totals?.total ?? 0) };
  }

  async find(id: string): Promise<EmailOutboxItem | undefined> {
    const [row] = await this.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    return row && item(row);
  }

  /** Writes the audit row of an admin's resend (spec §3 admin_audit_logs). */
  async auditResend(adminId: string, mail: EmailOutboxItem, outcome: string): Promise<void> {
    await writeAuditLog(this.db, adminId, {
      action: 'resend_email',
      table_name: 'email_outbox',
      record_id: mail.id,
      details: { to: mail.to, subject: mail.subject, template: mail.template, outcome },
    });
  }
}

/**
 * Mails left `pending` by a process that stopped before or during an attempt: untouched for
 * `olderThan` and with no retry waiting in the job queue (pg-boss's own table, ADR 014).
 */
export const stalePendingMails = async (db: Db, olderThan: Date, limit = 100): Promise<string[]> =>
  rowsOf<{ id: string }>(
    await db.execute(sql`
      select o.id from ${emailOutbox} o
      where o.status = 'pending' and o.updated_at < ${olderThan}
        and not exists (
          select 1 from pgboss.job j
          where j.name = 'email-retry' and j.data ->> 'outboxId' = o.id::text
            and j.state in ('created', 'retry', 'active')
        )
      order by o.updated_at
      limit ${limit}`),
  ).map((row) => row.id);
