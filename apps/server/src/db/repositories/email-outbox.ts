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

/**
 * The copy this reader may see: the whole display copy for a super admin, the copy without the
 * user's own content for any other admin when the mail holds some (docs/SECURITY.md, "Mail").
 */
const copyFor = (row: OutboxRow, readsContent: boolean) =>
  !readsContent && row.without_content
    ? { ...row.without_content, content_hidden: true }
    : { subject: row.subject, html: row.html, text: row.text, content_hidden: false };

const summary = (row: OutboxRow, readsContent: boolean): EmailOutboxSummary => {
  const copy = copyFor(row, readsContent);
  return {
    id: row.id,
    to: row.to,
    from: row.from,
    reply_to: row.reply_to,
    subject: copy.subject,
    template: row.template,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    sent_at: row.sent_at?.toISOString() ?? null,
    content_hidden: copy.content_hidden,
  };
};

const item = (row: OutboxRow, readsContent: boolean): EmailOutboxItem => {
  const copy = copyFor(row, readsContent);
  return { ...summary(row, readsContent), html: copy.html, text: copy.text };
};

/**
 * The back office's view of `email_outbox` (admins only; not user-owned data). `readsContent`:
 * the reader is a super admin, who sees users' own content in their mail; other admins read it
 * hidden.
 */
export class EmailOutboxRepository {
  constructor(
    private readonly db: Db,
    private readonly readsContent: boolean,
  ) {}

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
    return {
      emails: rows.map((row) => summary(row, this.readsContent)),
      total: Number(totals?.total ?? 0),
    };
  }

  async find(id: string): Promise<EmailOutboxItem | undefined> {
    const [row] = await this.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    return row && item(row, this.readsContent);
  }

  /**
   * Writes the audit row of an admin's resend (spec §3 admin_audit_logs). Every admin reads the
   * audit log, so it names the mail by the subject they may all read.
   */
  async auditResend(adminId: string, mail: EmailOutboxItem, outcome: string): Promise<void> {
    const [row] = await this.db.select().from(emailOutbox).where(eq(emailOutbox.id, mail.id));
    const subject = row ? copyFor(row, false).subject : mail.subject;
    await writeAuditLog(this.db, adminId, {
      action: 'resend_email',
      table_name: 'email_outbox',
      record_id: mail.id,
      details: { to: mail.to, subject, template: mail.template, outcome },
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
