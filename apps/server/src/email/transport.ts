import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import type { Logger } from '../logger.ts';

export type OutgoingEmail = {
  to: string[];
  subject: string;
  html: string;
  text: string;
  from?: string;
  replyTo?: string;
  template?: string;
};

export type Mailer = {
  /** Sends now through SMTP, or keeps the mail in `email_outbox` when no SMTP server is set. */
  send(mail: OutgoingEmail): Promise<{ delivered: boolean; outboxId: string }>;
  close(): void;
};

/**
 * Every mail is written to the outbox first, so nothing is lost: with SMTP it is then sent and
 * marked `sent` (or `failed` with the reason, for the retry job of the e-mail issue); without
 * SMTP it stays `pending` where admins can read it.
 */
export const createMailer = (opts: {
  db: Db;
  smtpUrl: string | undefined;
  defaultFrom: string;
  log: Logger;
}): Mailer => {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  return {
    async send(mail) {
      const from = mail.from ?? opts.defaultFrom;
      const [row] = await opts.db
        .insert(emailOutbox)
        .values({
          to: mail.to,
          from,
          reply_to: mail.replyTo ?? null,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          template: mail.template ?? null,
        })
        .returning({ id: emailOutbox.id });
      const outboxId = row!.id;
      if (!transport) {
        opts.log.info({ outboxId, template: mail.template }, 'email kept in outbox (no SMTP_URL)');
        return { delivered: false, outboxId };
      }
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
        });
        await opts.db
          .update(emailOutbox)
          .set({ status: 'sent', sent_at: new Date(), attempts: sql`${emailOutbox.attempts} + 1` })
          .where(eq(emailOutbox.id, outboxId));
        return { delivered: true, outboxId };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        opts.log.warn({ outboxId, reason }, 'email delivery failed');
        await opts.db
          .update(emailOutbox)
          .set({ status: 'failed', last_error: reason, attempts: sql`${emailOutbox.attempts} + 1` })
          .where(eq(emailOutbox.id, outboxId));
        return { delivered: false, outboxId };
      }
    },
    close() {
      transport?.close();
    },
  };
};
