import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsubscribeLimit } from '@chorus/shared/email';
import { emailUnsubscribes } from '../../../db/schema/index.ts';
import { emailIdentity } from '../../../email/identity.ts';
import { runNotificationEmail } from '../../../email/templates/run-notification.tsx';
import { eventually, startSmtpSink, type SmtpSink } from '../../../email/testing/smtp-sink.ts';
import { unsubscribedReason } from '../../../email/transport.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

const URL = '/rest/v1/unsubscribe';

/** The body of the unsubscribe link our mail to `email` carries. */
const linkOf = (email: string) => ({
  email,
  token: emailIdentity(t.config).unsubscribeToken(email),
});

let sink: SmtpSink;
let t: TestApp;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

describe('unsubscribe', () => {
  it('records a guest’s opt-out lower-cased, and a second time is the same', async () => {
    const first = await t.client().post(URL, linkOf(' Opt.Out@Example.com '));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ email: 'opt.out@example.com', unsubscribed: true });
    const again = await t.client().post(URL, linkOf('opt.out@example.com'));
    expect(again.body).toEqual(first.body);
    expect(
      await t.db
        .select()
        .from(emailUnsubscribes)
        .where(eq(emailUnsubscribes.email, 'opt.out@example.com')),
    ).toHaveLength(1);
  });

  it('opts nobody out without the signed link of their own mail', async () => {
    const victim = 'someone-else@example.com';
    const forged = [
      { email: victim },
      { email: victim, token: '' },
      { email: victim, token: 'forged-token' },
      { email: victim, token: emailIdentity(t.config).unsubscribeToken('attacker@example.com') },
    ];
    const answers = [];
    for (const body of forged) answers.push((await t.client().post(URL, body)).status);
    expect(answers).toEqual([400, 400, 403, 403]);
    expect(
      await t.db.select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, victim)),
    ).toHaveLength(0);
  });

  it('refuses something that is not an address', async () => {
    const res = await t.client().post(URL, { email: 'not-an-address', token: 'x' });
    expect(res.status).toBe(400);
    expect(
      await t.db
        .select()
        .from(emailUnsubscribes)
        .where(eq(emailUnsubscribes.email, 'not-an-address')),
    ).toHaveLength(0);
  });

  it('stops welcome and notification mail to the address, but not password resets', async () => {
    const address = 'quiet@example.com';
    expect((await t.client().post(URL, linkOf('QUIET@example.com'))).status).toBe(200);

    await t.user(address, 'correct-horse-1', 'Quiet');
    await t.deps.mailer.settled();
    const [welcome] = await t.outboxFor(address, 'welcome');
    expect(welcome).toMatchObject({ status: 'failed', last_error: unsubscribedReason([address]) });

    const notification = await t.deps.mailer.send(
      await runNotificationEmail({
        identity: emailIdentity(t.config),
        notification: { kind: 'run_started', to: address, runName: 'Nightly' },
      }),
    );
    expect(notification).toMatchObject({ status: 'failed', delivered: false, skipped: [address] });

    const reset = await t.client().post('/auth/v1/request-password-reset', { email: address });
    expect(reset.status).toBe(200);
    await eventually(
      () => sink.to(address).find((r) => r.mail.subject === 'Reset your Chorus password'),
      'the reset mail',
    );
    expect(sink.to(address).map((r) => r.mail.subject)).toEqual(['Reset your Chorus password']);
  });

  it('still sends to the other recipients of a mail', async () => {
    await t.client().post(URL, linkOf('left-out@example.com'));
    const mail = await runNotificationEmail({
      identity: emailIdentity(t.config),
      notification: { kind: 'test_run', to: 'kept@example.com', runName: 'Both' },
    });
    const result = await t.deps.mailer.send({
      ...mail,
      to: ['kept@example.com', 'left-out@example.com'],
    });
    expect(result).toMatchObject({ status: 'sent', skipped: ['left-out@example.com'] });
    expect(sink.to('left-out@example.com')).toHaveLength(0);
    expect(sink.to('kept@example.com')).toHaveLength(1);
  });

  it('answers 429 once one address has used its budget', async () => {
    const guest = t.client();
    for (let i = 0; i < unsubscribeLimit.points; i++) {
      expect((await guest.post(URL, linkOf(`many-${i}@example.com`))).status).toBe(200);
    }
    const res = await guest.post(URL, linkOf('one-more@example.com'));
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBeTruthy();
  });
});
