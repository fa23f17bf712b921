import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailOutboxItem, EmailOutboxList } from '@chorus/shared/api/email';
import { profiles } from '../../db/schema/index.ts';
import { eventually, startSmtpSink, type SmtpSink } from '../../email/testing/smtp-sink.ts';
import { TEST_APP_URL, startTestApp, type TestApp } from '../../test/harness.ts';

// Issue 13, point 1: an admin who is not a super admin asked for a password reset of the super
// admin, read the live link in the outbox and took the account. The outbox must never show a
// one-time link, whoever reads it; only the recipient's mailbox gets it.

const resetLink = new RegExp(
  `${TEST_APP_URL.replaceAll('.', '\\.')}/reset-password\\?token=([^\\s"<&]+)`,
);

let sink: SmtpSink;
let t: TestApp;
let root: Awaited<ReturnType<TestApp['user']>>;
let admin: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ env: { SMTP_URL: sink.url } });
  root = await t.user('takeover-root@example.com', 'root-password-123');
  admin = await t.user('takeover-admin@example.com');
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

describe('password reset links in the outbox', () => {
  it('are hidden from an admin, who cannot take the super admin’s account with them', async () => {
    const asked = await admin.post('/auth/v1/request-password-reset', { email: root.email });
    expect(asked.status).toBe(200);
    await t.deps.mailer.settled();

    const list = await admin.get<EmailOutboxList>('/rest/v1/admin/email-outbox?limit=50&offset=0');
    const summary = list.body.emails.find(
      (m) => m.template === 'password_reset' && m.to.includes(root.email),
    )!;
    const shown = await admin.get<EmailOutboxItem>(`/rest/v1/admin/email-outbox/${summary.id}`);
    expect(shown.status).toBe(200);
    const readable = `${shown.body.html}\n${shown.body.text}`;
    expect(readable).toContain('/reset-password?token=[hidden]');

    // Everything that looks like a token in what the admin can read gets nowhere.
    const candidates = [...readable.matchAll(/token=([^\s"<&]+)/g)].map((m) => m[1]!);
    for (const token of candidates) {
      const attempt = await t
        .client()
        .post('/auth/v1/reset-password', { token, newPassword: 'taken-over-123' });
      expect(attempt.status).toBe(400);
    }
    expect((await t.client().signIn(root.email, 'root-password-123')).status).toBe(200);
    expect((await t.client().signIn(root.email, 'taken-over-123')).status).toBe(401);

    // The super admin's own mailbox holds the working link.
    const received = await eventually(() => sink.to(root.email).at(-1), 'the reset mail');
    const token = decodeURIComponent(resetLink.exec(received.mail.text ?? '')![1]!);
    expect(readable).not.toContain(token);
    const reset = await t
      .client()
      .post('/auth/v1/reset-password', { token, newPassword: 'root-password-456' });
    expect(reset.status).toBe(200);
    expect((await t.client().signIn(root.email, 'root-password-456')).status).toBe(200);
  });

  it('are not kept once delivered, so an admin cannot send them again either', async () => {
    await t.client().post('/auth/v1/request-password-reset', { email: admin.email });
    const [row] = (await t.outboxFor(admin.email, 'password_reset')).slice(-1);
    expect(row!.status).toBe('sent');
    expect(row!.sealed_body).toBe('');
    const again = await admin.post(`/rest/v1/admin/email-outbox/${row!.id}/resend`);
    expect(again).toMatchObject({ status: 409, body: { code: 'email:one_time_link' } });
  });
});
