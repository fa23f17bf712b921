import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailMessages, sendEmailLimit } from '@chorus/shared/email';
import { messages } from '@chorus/shared/messages';
import { emailOutbox, profiles } from '../../../db/schema/index.ts';
import { eventually, startSmtpSink, type SmtpSink } from '../../../email/testing/smtp-sink.ts';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../../test/harness.ts';

const SUPPORT = 'support-desk@chorus.test';
const URL = '/functions/v1/send-email';

let sink: SmtpSink;
let t: TestApp;
type Client = Awaited<ReturnType<TestApp['user']>>;
let admin: Client;
let ann: Client;
/** Validation requests count against the limit too, so each group has its own sender. */
let checker: Client[];

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, SUPPORT_EMAIL: SUPPORT, MAIL_FROM: 'Chorus <robot@chorus.test>' },
  });
  admin = await t.user('send-root@example.com');
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
  ann = await t.user('send-ann@example.com');
  checker = await Promise.all([1, 2, 3].map((n) => t.user(`send-check-${n}@example.com`)));
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const mail = { subject: 'Hello', html: '<p>Hello <b>there</b></p>' };

describe('send-email validation (spec §5)', () => {
  it.each([
    ['no to', { subject: 'Hi', html: '<p>x</p>' }],
    ['an empty to', { to: '', subject: 'Hi', html: '<p>x</p>' }],
    ['an empty list', { to: [], subject: 'Hi', html: '<p>x</p>' }],
    ['no subject', { to: 'send-ann@example.com', html: '<p>x</p>' }],
    ['a blank subject', { to: 'send-ann@example.com', subject: '  ', html: '<p>x</p>' }],
    ['no html', { to: 'send-ann@example.com', subject: 'Hi', text: 'x' }],
  ])('refuses a mail with %s', async (_what, body) => {
    const res = await checker[0]!.post(URL, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: emailMessages.missingFields });
  });

  it.each([
    'send ann@example.com',
    'send-ann.example.com',
    'send@ann@example.com',
    'send-ann@example',
    'send-ann@',
  ])('refuses the recipient %j with the spec’s message', async (address) => {
    const res = await checker[1]!.post(URL, { ...mail, to: address });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: emailMessages.invalidRecipient(address) });
  });

  it('names the bad address in a list', async () => {
    const res = await checker[1]!.post(URL, { ...mail, to: ['send-ann@example.com', 'bad@nodot'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'Invalid email format: bad@nodot' });
  });

  it('checks run notifications with their own messages', async () => {
    const c = checker[2]!;
    const noRun = await c.post(URL, { to: c.email, subject: 'Run', type: 'run_started' });
    expect(noRun.body).toMatchObject({ error: emailMessages.missingData });
    const noText = await c.post(URL, {
      to: c.email,
      subject: 'Run',
      type: 'run_completed',
      runName: 'Nightly',
    });
    expect(noText.status).toBe(400);
    expect(noText.body).toMatchObject({ error: emailMessages.noResponseText });
  });

  it('refuses a reset link that does not point at APP_URL', async () => {
    const res = await checker[2]!.post(URL, {
      to: checker[2]!.email,
      subject: 'Reset',
      type: 'password_reset',
      resetLink: 'https://evil.example/reset',
      userName: 'Ann',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'email:reset_link' });
  });
});

describe('who may send (no open relay)', () => {
  it('refuses a guest with 401', async () => {
    const res = await t.client().post(URL, { ...mail, to: SUPPORT });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: messages.auth.required });
  });

  it('lets a user write to their own address and to support, in one mail', async () => {
    const res = await ann.post(URL, {
      ...mail,
      to: ['Send-Ann@Example.com', SUPPORT],
      text: 'Hello there',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, status: 'sent' });
    const received = await eventually(
      () => sink.to(SUPPORT).find((r) => r.mail.subject === 'Hello')?.mail,
      'the mail to support',
    );
    expect(received.text).toContain('Hello there');
    expect(received.from?.value[0]?.address).toBe('robot@chorus.test');
  });

  it('sends a user’s words inside the workspace template, never their markup', async () => {
    const html =
      '<p>Hi</p><a href="https://evil.example/login">Reset your password</a><img src="https://evil.example/t.gif"><script>alert(1)</script>';
    const res = await ann.post(URL, { ...mail, to: [SUPPORT], subject: 'Markup', html });
    expect(res.status).toBe(200);
    const received = await eventually(
      () => sink.to(SUPPORT).find((r) => r.mail.subject === 'Markup')?.mail,
      'the mail to support',
    );
    const sent = String(received.html);
    expect(sent).toContain('A message sent through Chorus');
    expect(sent).toContain('send-ann@example.com');
    for (const markup of ['href="https://evil.example', '<img src="https://evil', '<script']) {
      expect(sent).not.toContain(markup);
    }
    expect(received.text).toContain('Reset your password');
  });

  it('refuses a user writing to anyone else with 403 and writes nothing', async () => {
    const res = await ann.post(URL, {
      ...mail,
      to: ['send-ann@example.com', 'victim@example.com'],
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'email:recipient_not_allowed' });
    expect(await t.outboxFor('victim@example.com')).toHaveLength(0);
    expect(sink.to('victim@example.com')).toHaveLength(0);
  });

  it('never lets a caller’s from become the sender; it is the Reply-To, under the same rule', async () => {
    const spoof = await ann.post(URL, { ...mail, to: ann.email, from: 'ceo@bank.example' });
    expect(spoof.status).toBe(403);

    const res = await ann.post(URL, {
      ...mail,
      subject: 'From check',
      to: ann.email,
      from: `Ann <${ann.email}>`,
    });
    expect(res.status).toBe(200);
    const received = await eventually(
      () => sink.to(ann.email).find((r) => r.mail.subject === 'From check')?.mail,
      'the from check',
    );
    expect(received.from?.value[0]?.address).toBe('robot@chorus.test');
    expect(received.replyTo?.value[0]?.address).toBe(ann.email);
    expect(received.text).toContain('Hello there');
  });

  it('lets an admin write to anyone, with any Reply-To', async () => {
    const res = await admin.post(URL, {
      ...mail,
      subject: 'Admin note',
      to: 'anyone@example.org',
      replyTo: 'desk@example.org',
    });
    expect(res.status).toBe(200);
    const received = await eventually(
      () => sink.to('anyone@example.org').find((r) => r.mail.subject === 'Admin note')?.mail,
      'the admin mail',
    );
    expect(received.replyTo?.value[0]?.address).toBe('desk@example.org');
  });

  it('sends the spec’s password_reset form with the template', async () => {
    const link = `${TEST_APP_URL}/reset-password?token=abc`;
    const res = await ann.post(URL, {
      to: ann.email,
      subject: 'Your reset link',
      type: 'password_reset',
      resetLink: link,
      userName: 'Ann',
    });
    expect(res.status).toBe(200);
    const received = await eventually(
      () => sink.to(ann.email).find((r) => r.mail.subject === 'Your reset link')?.mail,
      'the reset mail',
    );
    expect(received.text).toContain(link);
    const [row] = await t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.id, (res.body as { id: string }).id));
    expect(row).toMatchObject({ template: 'password_reset', status: 'sent' });
  });
});

describe('send-email rate limit', () => {
  it('answers 429 with Retry-After once a user’s budget is spent', async () => {
    const busy = await t.user('send-busy@example.com');
    for (let i = 0; i < sendEmailLimit.points; i++) {
      const res = await busy.post(URL, { ...mail, to: busy.email });
      expect(res.status).toBe(200);
    }
    const res = await busy.post(URL, { ...mail, to: busy.email });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBeTruthy();
    // Another user's budget is their own.
    expect((await ann.post(URL, { ...mail, to: ann.email })).status).toBe(200);
  });
});
