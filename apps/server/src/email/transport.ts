import { eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Db } from '../db/client.ts';
import { emailOutbox } from '../db/schema/index.ts';
import type { Logger } from '../logger.ts';
import { unsubscribedAmong } from '../db/repositories/unsubscribes.ts';

export type OutgoingEmail = {
  to: string[];
  subject: string;
  html: string;
  text: string;
  from?: string;
  replyTo?: string | undefined;
  template?: string;
  /** Welcome and notification mail: not sent to addresses that unsubscribed. */
  respectsUnsubscribe?: boolean;
  /**
   * Values only the recipient may see (the token of a reset, invitation or unsubscribe link).
   * The outbox shows the mail with them hidden, whoever reads it; the mail as sent is sealed.
   */
  secrets?: string[];
  /**
   * The same mail with the user's own content (what they wrote, names they chose, a model's
   * reply) replaced by `hiddenContentMarker`: what an admin who is not a super admin reads in the
   * outbox. Left out for mail without user content.
   */
  withoutContent?: { subject: string; html: string; text: string };
};

/** What stands in for a hidden value in the back office's copy of a mail. */
export const HIDDEN = '[hidden]';

/** A sealed body that has been sent and erased: the mail cannot be sent again from the outbox. */
const ERASED = '';

const htmlEscaped = (value: string) =>
  value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`).replace(/&#38;/g, '&amp;');

/** The mail with every secret hidden, as written, URL-encoded or HTML-escaped. */
export const redactSecrets = (content: string, secrets: string[]): string => {
  let out = content;
  for (const secret of secrets) {
    if (secret.length < 8) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), htmlEscaped(secret)])) {
      out = out.split(form).join(HIDDEN);
    }
  }
  return out;
};

type Body = { html: string; text: string | null };

/** Templates people can opt out of (`/unsubscribe`); password resets are not among them. */
export const optOutTemplates = new Set([
  'welcome',
  'test_run',
  'run_started',
  'run_completed',
  'run_failed',
  'run_needs_approval',
  'schedule_disabled',
  'widget_budget',
]);

export type OutboxStatus = 'pending' | 'sent' | 'failed';

export type SendResult = {
  outboxId: string;
  status: OutboxStatus;
  delivered: boolean;
  /** Recipients left out because they unsubscribed. */
  skipped: string[];
};

/**
 * Asked after a failed attempt (the `attempts` so far) to try the row again later; answers false
 * once the retries are used up, and the row is then marked failed.
 */
export type RetryScheduler = (outboxId: string, attempts: number) => Promise<boolean>;

export type Mailer = {
  readonly smtpEnabled: boolean;
  /** Writes the mail to `email_outbox`, then sends it through SMTP when SMTP_URL is set. */
  send(mail: OutgoingEmail): Promise<SendResult>;
  /** One more attempt at a pending row (the retry job); rows in another state are left alone. */
  retry(outboxId: string): Promise<OutboxStatus | null>;
  /**
   * An admin's resend: one attempt now, whatever the row's state; the outcome is final.
   * `erased`: the mail held a one-time link and was sent already, so it is not kept to resend.
   */
  resend(outboxId: string): Promise<OutboxStatus | 'erased' | null>;
  /** The mail as its recipient gets it (tests read links from it as a person would). */
  delivered(row: OutboxRow): Body;
  /**
   * Builds and sends a mail beside the caller's work (the welcome mail after a sign-up): never
   * awaited by the caller, failures are logged.
   */
  sendInBackground(build: () => Promise<OutgoingEmail>, context: Record<string, unknown>): void;
  /**
   * Work that ends in a mail, run beside the caller's answer (a reset request without a job
   * queue): never awaited by the caller, failures are logged, and `settled` waits for it.
   */
  runInBackground(work: () => Promise<unknown>, context: Record<string, unknown>): void;
  /** Resolves once every background send has finished (for shutdown and tests). */
  settled(): Promise<void>;
  /** Hands failed sends to a job queue; without one a failed send is marked failed at once. */
  useRetries(scheduler: RetryScheduler | null): void;
  close(): void;
};

export type OutboxRow = typeof emailOutbox.$inferSelect;

export const unsubscribedReason = (addresses: string[]) =>
  `Not sent: ${addresses.join(', ')} unsubscribed`;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Every mail is written to the outbox first, so nothing is lost. With SMTP it is then sent and
 * marked `sent`; a failed attempt is retried by the job queue with backoff (the row stays
 * `pending` with `last_error` meanwhile) and marked `failed` with the reason once retries are used
 * up. Without SMTP it stays `pending`, where admins read it in the back office.
 */
export const createMailer = (opts: {
  db: Db;
  box: SecretBox;
  smtpUrl: string | undefined;
  defaultFrom: string;
  log: Logger;
}): Mailer => {
  const { db, log, box } = opts;
  const delivered = (row: OutboxRow): Body =>
    row.sealed_body ? (JSON.parse(box.open(row.sealed_body)) as Body) : row;
  const transport = opts.smtpUrl
    ? nodemailer.createTransport({
        url: opts.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      })
    : null;
  let scheduleRetry: RetryScheduler | null = null;
  const inFlight = new Set<Promise<void>>();

  const load = async (id: string) =>
    (await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0];

  /** One SMTP attempt; `retryOnFailure` decides whether a failure may still be retried. */
  const attempt = async (row: OutboxRow, retryOnFailure: boolean): Promise<OutboxStatus> => {
    if (!transport) return row.status;
    try {
      const body = delivered(row);
      await transport.sendMail({
        from: row.from,
        to: row.to,
        replyTo: row.reply_to ?? undefined,
        subject: row.subject,
        html: body.html,
        text: body.text ?? undefined,
      });
      await db
        .update(emailOutbox)
        .set({
          status: 'sent',
          sent_at: new Date(),
          updated_at: new Date(),
          last_error: null,
          attempts: sql`${emailOutbox.attempts} + 1`,
          // Delivered: the one-time link need not wait in the database any longer.
          ...(row.sealed_body ? { sealed_body: ERASED } : {}),
        })
        .where(eq(emailOutbox.id, row.id));
      return 'sent';
    } catch (error) {
      const reason = errorText(error);
      const attempts = row.attempts + 1;
      const scheduler = retryOnFailure ? scheduleRetry : null;
      const mayRetry = scheduler !== null;
      await db
        .update(emailOutbox)
        .set({
          status: mayRetry ? 'pending' : 'failed',
          last_error: reason,
          updated_at: new Date(),
          attempts: sql`${emailOutbox.attempts} + 1`,
        })
        .where(eq(emailOutbox.id, row.id));
      let status: OutboxStatus = 'failed';
      if (mayRetry) {
        try {
          if (await scheduler(row.id, attempts)) status = 'pending';
        } catch (scheduleError) {
          log.error({ err: scheduleError, outboxId: row.id }, 'scheduling an e-mail retry failed');
        }
        if (status === 'failed') {
          await db.update(emailOutbox).set({ status }).where(eq(emailOutbox.id, row.id));
        }
      }
      log.warn({ outboxId: row.id, attempts, reason, status }, 'email delivery failed');
      return status;
    }
  };

  const mailer: Mailer = {
    smtpEnabled: transport !== null,
    async send(mail) {
      const from = mail.from ?? opts.defaultFrom;
      let to = mail.to;
      let skipped: string[] = [];
      if (mail.respectsUnsubscribe) {
        const out = await unsubscribedAmong(db, mail.to);
        skipped = mail.to.filter((address) => out.has(address.trim().toLowerCase()));
        to = mail.to.filter((address) => !out.has(address.trim().toLowerCase()));
      }
      // A mail nobody may receive is still written down, so admins see why it did not go.
      const allSkipped = to.length === 0;
      const secrets = mail.secrets ?? [];
      const [row] = await db
        .insert(emailOutbox)
        .values({
          to: allSkipped ? mail.to : to,
          from,
          reply_to: mail.replyTo ?? null,
          subject: mail.subject,
          html: redactSecrets(mail.html, secrets),
          text: redactSecrets(mail.text, secrets),
          sealed_body:
            secrets.length > 0
              ? box.seal(JSON.stringify({ html: mail.html, text: mail.text }))
              : null,
          without_content: mail.withoutContent
            ? {
                subject: redactSecrets(mail.withoutContent.subject, secrets),
                html: redactSecrets(mail.withoutContent.html, secrets),
                text: redactSecrets(mail.withoutContent.text, secrets),
              }
            : null,
          template: mail.template ?? null,
          ...(allSkipped && { status: 'failed' as const, last_error: unsubscribedReason(skipped) }),
        })
        .returning();
      const saved = row!;
      if (allSkipped) {
        log.info({ outboxId: saved.id, template: mail.template }, 'email skipped (unsubscribed)');
        return { outboxId: saved.id, status: 'failed', delivered: false, skipped };
      }
      if (!transport) {
        log.info(
          { outboxId: saved.id, template: mail.template },
          'email kept in outbox (no SMTP_URL)',
        );
        return { outboxId: saved.id, status: 'pending', delivered: false, skipped };
      }
      const status = await attempt(saved, true);
      return { outboxId: saved.id, status, delivered: status === 'sent', skipped };
    },
    async retry(outboxId) {
      const row = await load(outboxId);
      if (!row) return null;
      if (row.status !== 'pending') return row.status;
      return attempt(row, true);
    },
    async resend(outboxId) {
      const row = await load(outboxId);
      if (!row) return null;
      if (row.sealed_body === ERASED) return 'erased';
      if (!transport) {
        await db.update(emailOutbox).set({ status: 'pending' }).where(eq(emailOutbox.id, row.id));
        return 'pending';
      }
      return attempt(row, false);
    },
    sendInBackground(build, context) {
      mailer.runInBackground(async () => mailer.send(await build()), context);
    },
    runInBackground(work, context) {
      const running = Promise.resolve()
        .then(work)
        .then(
          () => undefined,
          (error: unknown) => log.error({ err: error, ...context }, 'background e-mail failed'),
        )
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    useRetries(scheduler) {
      scheduleRetry = scheduler;
    },
    close() {
      transport?.close();
    },
    delivered,
  };
  return mailer;
};
