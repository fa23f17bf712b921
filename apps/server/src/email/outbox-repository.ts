import { count, desc, eq, type SQL } from 'drizzle-orm';
import type {
  EmailOutboxItem,
  EmailOutboxQuery,
  EmailOutboxSummary,
} from '@chorus/shared/api/email';
import type { Db } from '../db/client.ts';
import { adminAuditLogs, emailOutbox } from '../db/schema.ts';

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
    await this.db.insert(adminAuditLogs).values({
      admin_id: adminId,
      action: 'resend_email',
      table_name: 'email_outbox',
      record_id: mail.id,
      details: { to: mail.to, subject: mail.subject, template: mail.template, outcome },
    });
  }
}
