import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribePath, welcomeLinkPaths } from '@chorus/shared/email';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';
import { emailIdentity } from './identity.ts';
import { runNotificationEmail } from './templates/run-notification.tsx';
import { eventually, startSmtpSink, type SmtpSink } from './testing/smtp-sink.ts';

const SUPPORT = 'help-desk@chorus.test';
const FROM_ADDRESS = 'hello@chorus.test';
const year = String(new Date().getFullYear());

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: {
      SMTP_URL: sink.url,
      SUPPORT_EMAIL: SUPPORT,
      MAIL_FROM: `Chorus Team <${FROM_ADDRESS}>`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const delivered = (address: string, subject: string) =>
  eventually(
    () => sink.to(address).find((r) => r.mail.subject === subject)?.mail,
    `"${subject}" to ${address}`,
  );

/** Every href in the HTML part. */
const hrefs = (mail: ParsedMail) =>
  [...String(mail.html).matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

/** The footer of every template: the current year, the sender and the support identity. */
const expectFooter = (mail: ParsedMail) => {
  expect(mail.from?.value[0]?.address).toBe(FROM_ADDRESS);
  expect(mail.text).toContain(`© ${year} Chorus`);
  expect(mail.text).toContain('Chorus Team');
  expect(mail.text).toContain(SUPPORT);
  expect(String(mail.html)).toContain(`© ${year} Chorus`);
  expect(hrefs(mail)).toContain(`mailto:${SUPPORT}`);
};

describe('e-mail templates through a real SMTP server', () => {
  it('sends the welcome mail after sign-up with every spec link built from APP_URL', async () => {
    await t.user('welcome-ann@example.com', 'correct-horse-1', 'Ann Welcome');
    const mail = await delivered('welcome-ann@example.com', 'Welcome to Chorus');

    expectFooter(mail);
    expect(mail.text?.toLowerCase()).toContain('welcome to chorus, ann welcome!');
    const links = hrefs(mail);
    const token = emailIdentity(t.config).unsubscribeToken('welcome-ann@example.com');
    const unsubscribe = `${TEST_APP_URL}${unsubscribePath('welcome-ann@example.com', token)}`;
    expect(unsubscribe).toBe(
      `${TEST_APP_URL}/unsubscribe?email=welcome-ann%40example.com&token=${encodeURIComponent(token)}`,
    );
    for (const path of welcomeLinkPaths) {
      expect(links).toContain(`${TEST_APP_URL}${path}`);
      expect(mail.text).toContain(`${TEST_APP_URL}${path}`);
    }
    expect(links).toContain(unsubscribe);
    expect(mail.text).toContain(unsubscribe);

    const [row] = (await t.outboxFor('welcome-ann@example.com')).filter(
      (r) => r.template === 'welcome',
    );
    expect(row).toMatchObject({
      status: 'sent',
      attempts: 1,
      from: `Chorus Team <${FROM_ADDRESS}>`,
    });
  });

  it('sends the password reset mail with its link and no unsubscribe link', async () => {
    await t.user('reset-bo@example.com', 'correct-horse-1', 'Bo Reset');
    const res = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: 'reset-bo@example.com' });
    expect(res.status).toBe(200);
    const mail = await delivered('reset-bo@example.com', 'Reset your Chorus password');

    expectFooter(mail);
    expect(mail.text).toContain('Hi Bo Reset,');
    const link = hrefs(mail).find((h) => h.startsWith(`${TEST_APP_URL}/reset-password?token=`));
    expect(link).toBeDefined();
    expect(mail.text).toContain(link);
    expect(hrefs(mail).some((h) => h.includes('/unsubscribe'))).toBe(false);
  });

  it('sends the contact form to the support address with Reply-To the sender, HTML escaped', async () => {
    const res = await t.client().post('/functions/v1/contact', {
      name: 'Cy Contact',
      email: 'cy@example.com',
      message: 'Hello <b>support</b>,\nmy chats vanish.',
    });
    expect(res.status).toBe(200);
    const mail = await delivered(SUPPORT, 'Contact form: Cy Contact');

    expectFooter(mail);
    expect(mail.replyTo?.value[0]?.address).toBe('cy@example.com');
    expect(mail.text).toContain('Hello <b>support</b>,');
    expect(mail.text).toContain('my chats vanish.');
    expect(String(mail.html)).not.toContain('<b>support</b>');
    expect(String(mail.html)).toContain('&lt;b&gt;support&lt;/b&gt;');
  });

  it.each([
    ['test_run', 'Test run: Nightly summary', '/test-runner', 'This is a test notification'],
    ['run_started', 'Run started: Nightly summary', '/schedule-runs', 'has started'],
    ['run_completed', 'Run completed: Nightly summary', '/schedule-runs', 'The answer is 42.'],
  ] as const)(
    'sends the %s notification with its link, year and text part',
    async (kind, subject, path, line) => {
      const to = `notify-${kind}@example.com`;
      const mail = await runNotificationEmail({
        identity: emailIdentity(t.config),
        notification: { kind, to, runName: 'Nightly summary', responseText: 'The answer is 42.' },
      });
      const result = await t.deps.mailer.send(mail);
      expect(result).toMatchObject({ status: 'sent', delivered: true });
      const received = await delivered(to, subject);

      expectFooter(received);
      expect(received.text).toContain(line);
      expect(hrefs(received)).toContain(`${TEST_APP_URL}${path}`);
      expect(received.text).toContain(`${TEST_APP_URL}${path}`);
      const token = emailIdentity(t.config).unsubscribeToken(to);
      expect(hrefs(received)).toContain(`${TEST_APP_URL}${unsubscribePath(to, token)}`);
    },
  );

  it('sends the notifications requested through send-email as well', async () => {
    const ed = await t.user('notify-ed@example.com', 'correct-horse-1', 'Ed');
    const res = await ed.post('/functions/v1/send-email', {
      to: 'notify-ed@example.com',
      subject: 'Your test run notification',
      type: 'test_run',
      runName: 'Smoke test',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'sent' });
    const mail = await delivered('notify-ed@example.com', 'Your test run notification');
    expectFooter(mail);
    expect(mail.text).toContain('Smoke test');
  });
});
