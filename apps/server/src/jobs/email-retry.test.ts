import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../db/schema/index.ts';
import { eventually, startSmtpSink, type SmtpSink } from '../email/testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import {
  defaultEmailRetryPolicy,
  EMAIL_RETRY_JOB,
  emailOutboxSweepJob,
  retryDelayMs,
} from './email-retry.ts';

const SUPPORT = 'retry-desk@chorus.test';
const message = { name: 'Fay', email: 'fay@example.com', message: 'Hello?' };

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, SUPPORT_EMAIL: SUPPORT },
    jobs: { retry: { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 400 } },
  });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const rowOf = async (id: string) =>
  (await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!;

const latestContactRow = async () => (await t.outboxFor(SUPPORT, 'contact')).at(-1)!;

describe('e-mail retries through the job queue', () => {
  it('backs off exponentially up to the cap', () => {
    const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 350 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(policy, n))).toEqual([100, 200, 350, 350]);
    expect(retryDelayMs(defaultEmailRetryPolicy, 1)).toBe(60_000);
  });

  it('retries a mail the server refused, and it is sent on a later attempt', async () => {
    sink.rejectNext(2);
    const res = await t.client().post('/functions/v1/contact', message);
    expect(res.status).toBe(200);

    const first = await latestContactRow();
    expect(first).toMatchObject({ status: 'pending', attempts: 1 });
    expect(first.last_error).toMatch(/451/);

    const sent = await eventually(async () => {
      const row = await rowOf(first.id);
      return row.status === 'sent' ? row : undefined;
    }, 'the retried mail to be sent');
    expect(sent).toMatchObject({ attempts: 3, last_error: null });
    expect(sink.to(SUPPORT).map((r) => r.mail.subject)).toEqual(['Contact form: Fay']);
  });

  it('marks a mail failed with the error once the retries are used up', async () => {
    sink.rejectAll(true);
    try {
      const res = await t.client().post('/functions/v1/contact', { ...message, name: 'Gus' });
      expect(res.status).toBe(200);
      const row = await latestContactRow();
      const failed = await eventually(async () => {
        const r = await rowOf(row.id);
        return r.status === 'failed' ? r : undefined;
      }, 'the mail to be marked failed');
      expect(failed.attempts).toBe(3);
      expect(failed.last_error).toMatch(/451.*Mailbox busy/);
      expect(sink.to(SUPPORT).map((r) => r.mail.subject)).not.toContain('Contact form: Gus');
    } finally {
      sink.rejectAll(false);
    }
  });

  it('sends a mail a stop left pending, and leaves one whose retry is queued to its job', async () => {
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    const pendingMail = (to: string) =>
      t.db
        .insert(emailOutbox)
        .values({
          to: [to],
          from: 'Chorus <no-reply@chorus.test>',
          subject: `For ${to}`,
          html: '<p>Hello</p>',
          text: 'Hello',
          template: 'welcome',
          updated_at: tenMinutesAgo,
        })
        .returning()
        .then((rows) => rows[0]!);
    // Written to the outbox, then the process stopped before its first attempt finished.
    const cutOff = await pendingMail('cut-off@example.com');
    // Failed once, its retry waiting in the queue for later.
    const waiting = await pendingMail('waiting@example.com');
    await t.deps.jobs.send(
      EMAIL_RETRY_JOB,
      { outboxId: waiting.id },
      { startAfter: new Date(Date.now() + 3_600_000) },
    );

    await emailOutboxSweepJob.run({}, t.deps);

    expect(await rowOf(cutOff.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(sink.to('cut-off@example.com').map((r) => r.mail.subject)).toEqual([
      'For cut-off@example.com',
    ]);
    expect(await rowOf(waiting.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(sink.to('waiting@example.com')).toEqual([]);
  });
});
