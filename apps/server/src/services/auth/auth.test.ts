import { createServer, type AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_APP_URL, type TestApp } from '../../test/harness.ts';
import { weakPasswordMessage } from '@chorus/shared/password-policy';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type SessionBody = { user: { id: string; email: string }; session: Record<string, unknown> } | null;

const sessionCookieLine = (headers: Headers) =>
  headers.getSetCookie().find((line) => line.startsWith('chorus.session_token='));

const resetLinkPattern = new RegExp(
  `${TEST_APP_URL.replaceAll('.', '\\.')}/reset-password\\?token=([^\\s"<&]+)`,
);

/** The token of the newest reset mail to `email`, as its recipient gets it. */
const latestResetToken = async (app: TestApp, email: string): Promise<string> => {
  const mails = await app.deliveredTo(email);
  const text = mails.at(-1)?.text ?? '';
  const match = resetLinkPattern.exec(text);
  if (!match) throw new Error(`no reset link in the mail to ${email}: ${text}`);
  return decodeURIComponent(match[1]!);
};

const signInStatus = async (email: string, password: string) =>
  (await t.client().signIn(email, password)).status;

describe('sign-up', () => {
  it('sets an httpOnly, SameSite=Lax session cookie and keeps the token out of the body', async () => {
    const c = t.client();
    const res = await c.signUp('signup-cookie@example.com');
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('signup-cookie@example.com');
    expect(res.body).not.toHaveProperty('token');

    const cookie = sessionCookieLine(res.headers);
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);

    const session = await c.get<SessionBody>('/auth/v1/get-session');
    expect(session.status).toBe(200);
    expect(session.body?.user.email).toBe('signup-cookie@example.com');
    expect(session.body).not.toHaveProperty('token');
    expect(session.body?.session).not.toHaveProperty('token');
  });

  it('refuses a password that is easy to guess wherever one is chosen, saying why', async () => {
    const weak = await t.client().signUp('weak-password@example.com', '12345678');
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      code: 'PASSWORD_TOO_WEAK',
      message: weakPasswordMessage('topTen'),
    });
    const ownName = await t.client().signUp('jane.doe@example.com', 'jane.doe');
    expect(ownName.status).toBe(400);

    const user = await t.user('strong-password@example.com');
    const change = await user.post('/auth/v1/change-password', {
      currentPassword: 'correct-horse-1',
      newPassword: 'password1',
    });
    expect(change).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_WEAK' } });
    await t.client().post('/auth/v1/request-password-reset', { email: user.email });
    const token = await latestResetToken(t, user.email);
    const reset = await t
      .client()
      .post('/auth/v1/reset-password', { token, newPassword: 'qwertyuiop' });
    expect(reset).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_WEAK' } });
    expect(await signInStatus(user.email, 'correct-horse-1')).toBe(200);
  });

  it('refuses the person’s own name and a year on sign-up, reset and change', async () => {
    const ownName = weakPasswordMessage('userInputs');
    const signUp = await t.client().signUp('jd-7@example.com', 'janedoe2024', 'Jane Doe');
    expect(signUp).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_WEAK' } });
    expect((signUp.body as unknown as { message: string }).message).toBe(ownName);

    // Reset and change carry no name in their body: the account's own name and address count.
    const john = await t.user('js-42@example.com', 'correct-horse-1', 'John Smith');
    const change = await john.post('/auth/v1/change-password', {
      currentPassword: 'correct-horse-1',
      newPassword: 'john.smith1990',
    });
    expect(change).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_WEAK' } });
    expect((change.body as { message: string }).message).toBe(ownName);

    await t.client().post('/auth/v1/request-password-reset', { email: john.email });
    const token = await latestResetToken(t, john.email);
    const reset = await t
      .client()
      .post('/auth/v1/reset-password', { token, newPassword: 'john.smith1990' });
    expect(reset).toMatchObject({ status: 400, body: { code: 'PASSWORD_TOO_WEAK' } });
    expect((reset.body as { message: string }).message).toBe(ownName);
    expect(await signInStatus(john.email, 'correct-horse-1')).toBe(200);

    // The same password is fine for someone else.
    const other = await t.user('someone-else@example.com', 'correct-horse-1', 'Ann Lee');
    const fine = await other.post('/auth/v1/change-password', {
      currentPassword: 'correct-horse-1',
      newPassword: 'john.smith1990',
    });
    expect(fine.status).toBe(200);
  });

  it('lists a user’s sessions without their tokens', async () => {
    const c = await t.user('list-sessions@example.com');
    await t.client().signIn('list-sessions@example.com');
    const list = await c.get<Record<string, unknown>[]>('/auth/v1/list-sessions');
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    for (const session of list.body) {
      expect(session).toHaveProperty('id');
      expect(session).not.toHaveProperty('token');
    }
    const cookieToken = decodeURIComponent(c.cookies.get('chorus.session_token')!).split('.')[0]!;
    expect(JSON.stringify(list.body)).not.toContain(cookieToken);
  });

  it('refuses a second account for the same e-mail without a server error', async () => {
    await t.user('signup-twice@example.com');
    const res = await t.client().signUp('signup-twice@example.com', 'another-password-2');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('refuses a password shorter than eight characters with 400', async () => {
    const res = await t.client().signUp('signup-short@example.com', 'short7!');
    expect(res.status).toBe(400);
    expect(await signInStatus('signup-short@example.com', 'short7!')).toBe(401);
  });
});

describe('sign-in', () => {
  it('accepts the right password and refuses a wrong one or an unknown e-mail with 401', async () => {
    await t.user('signin@example.com', 'right-password-1');
    const ok = await t.client().signIn('signin@example.com', 'right-password-1');
    expect(ok.status).toBe(200);
    expect(ok.body).not.toHaveProperty('token');
    expect(sessionCookieLine(ok.headers)).toMatch(/HttpOnly/i);

    expect(await signInStatus('signin@example.com', 'wrong-password-1')).toBe(401);
    expect(await signInStatus('nobody-here@example.com', 'right-password-1')).toBe(401);
  });
});

describe('session', () => {
  it('get-session returns the user while signed in and null after sign-out', async () => {
    const ann = await t.user('session-ann@example.com');
    const before = await ann.get<SessionBody>('/auth/v1/get-session');
    expect(before.body?.user.id).toBe(ann.id);

    expect((await ann.post('/auth/v1/sign-out')).status).toBe(200);
    const after = await ann.get<SessionBody>('/auth/v1/get-session');
    expect(after.status).toBe(200);
    expect(after.body).toBeNull();
  });

  it('sign-out ends the session on the server, not only in the browser', async () => {
    const ann = await t.user('signout-ann@example.com');
    const staleCookies = new Map(ann.cookies);
    expect((await ann.get('/rest/v1/profile')).status).toBe(200);

    await ann.post('/auth/v1/sign-out');
    expect((await ann.get('/rest/v1/profile')).status).toBe(401);

    const replay = t.client();
    for (const [name, value] of staleCookies) replay.cookies.set(name, value);
    expect((await replay.get('/rest/v1/profile')).status).toBe(401);
  });

  it('a guest has no session', async () => {
    const res = await t.client().get('/auth/v1/get-session');
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
  });
});

describe('change-password', () => {
  it('requires the current password, then only the new one signs in', async () => {
    const ann = await t.user('change-ann@example.com', 'old-password-1');
    const wrong = await ann.post('/auth/v1/change-password', {
      currentPassword: 'not-the-password',
      newPassword: 'new-password-2',
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    expect(await signInStatus('change-ann@example.com', 'old-password-1')).toBe(200);

    const right = await ann.post('/auth/v1/change-password', {
      currentPassword: 'old-password-1',
      newPassword: 'new-password-2',
    });
    expect(right.status).toBe(200);
    expect(right.body).not.toHaveProperty('token');
    expect(await signInStatus('change-ann@example.com', 'old-password-1')).toBe(401);
    expect(await signInStatus('change-ann@example.com', 'new-password-2')).toBe(200);
  });

  it('is refused to a guest', async () => {
    const res = await t.client().post('/auth/v1/change-password', {
      currentPassword: 'whatever-1',
      newPassword: 'an-unguessable-choice-2',
    });
    expect(res.status).toBe(401);
  });
});

describe('password reset', () => {
  it('writes a reset mail with a link to APP_URL into the outbox when no SMTP server is set', async () => {
    await t.user('reset-mail@example.com');
    const res = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: 'reset-mail@example.com' });
    expect(res.status).toBe(200);

    const [mail, ...more] = await t.deliveredTo('reset-mail@example.com', 'password_reset');
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({ status: 'pending', template: 'password_reset' });
    expect(mail!.text).toContain(`${TEST_APP_URL}/reset-password?token=`);
    expect(await latestResetToken(t, 'reset-mail@example.com')).not.toBe('');
  });

  it('sets the new password with the mailed token, and the token works only once', async () => {
    await t.user('reset-use@example.com', 'old-password-1');
    await t.client().post('/auth/v1/request-password-reset', { email: 'reset-use@example.com' });
    const token = await latestResetToken(t, 'reset-use@example.com');

    const reset = await t
      .client()
      .post('/auth/v1/reset-password', { token, newPassword: 'reset-password-2' });
    expect(reset.status).toBe(200);
    expect(await signInStatus('reset-use@example.com', 'reset-password-2')).toBe(200);
    expect(await signInStatus('reset-use@example.com', 'old-password-1')).toBe(401);

    const again = await t
      .client()
      .post('/auth/v1/reset-password', { token, newPassword: 'reset-password-3' });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.status).toBeLessThan(500);
    expect(await signInStatus('reset-use@example.com', 'reset-password-3')).toBe(401);
  });

  it('signs out every session of the account when the password is reset', async () => {
    const ann = await t.user('reset-revoke@example.com');
    await t.client().post('/auth/v1/request-password-reset', { email: 'reset-revoke@example.com' });
    const token = await latestResetToken(t, 'reset-revoke@example.com');
    await t.client().post('/auth/v1/reset-password', { token, newPassword: 'reset-password-2' });
    expect((await ann.get('/rest/v1/profile')).status).toBe(401);
  });

  it('refuses an empty token and a made-up token', async () => {
    await t.user('reset-forged@example.com', 'old-password-1');
    const attempts = [
      { token: '', newPassword: 'forged-password-1' },
      { token: 'made-up-token-0123456789ab', newPassword: 'forged-password-1' },
      { newPassword: 'forged-password-1' },
    ];
    for (const body of attempts) {
      const res = await t.client().post('/auth/v1/reset-password', body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    const emptyInQuery = await t
      .client()
      .post('/auth/v1/reset-password?token=', { token: '', newPassword: 'forged-password-1' });
    expect(emptyInQuery.status).toBeGreaterThanOrEqual(400);
    expect(emptyInQuery.status).toBeLessThan(500);
    expect(await signInStatus('reset-forged@example.com', 'old-password-1')).toBe(200);
  });

  it('answers an unknown e-mail like a known one but sends nothing', async () => {
    const unknown = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: 'reset-nobody@example.com' });
    await t.user('reset-somebody@example.com');
    const known = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: 'reset-somebody@example.com' });

    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(await t.outboxFor('reset-nobody@example.com')).toHaveLength(0);
  });
});

describe('password reset through a real SMTP server', () => {
  type Received = { envelopeTo: string[]; mail: ParsedMail };
  const received: Received[] = [];
  let smtp: SMTPServer;
  let smtpPort: number;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpPort = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('delivers the reset mail to the user and marks the outbox row sent', async () => {
    const mailing = await startTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` },
      database: t.database,
    });
    try {
      await t.user('smtp-ann@example.com', 'correct-horse-1', 'Ann Smtp');
      const res = await mailing
        .client()
        .post('/auth/v1/request-password-reset', { email: 'smtp-ann@example.com' });
      expect(res.status).toBe(200);
      // Queued beside the answer (no job queue here): wait for it.
      await mailing.deps.mailer.settled();

      const delivered = received.filter((r) => r.envelopeTo.includes('smtp-ann@example.com'));
      expect(delivered).toHaveLength(1);
      const { mail } = delivered[0]!;
      const link = `${TEST_APP_URL}/reset-password?token=`;
      const year = String(new Date().getFullYear());
      expect(mail.subject).toBe('Reset your Chorus password');
      expect(mail.text).toContain(link);
      expect(mail.text).toContain(`© ${year} Chorus`);
      expect(mail.html).toContain(link);
      expect(mail.html).toContain(`© ${year} Chorus`);

      const [row] = await t.outboxFor('smtp-ann@example.com', 'password_reset');
      expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      expect(row!.sent_at).toBeInstanceOf(Date);

      // Delivered: the outbox keeps only the copy without the link, and not the link itself.
      const token = resetLinkPattern.exec(mail.text ?? '')![1]!;
      expect(`${row!.html}${row!.text}`).not.toContain(token);
      expect(row!.text).toContain('/reset-password?token=[hidden]');
      expect(row!.sealed_body).toBe('');
    } finally {
      await mailing.close();
    }
  });

  it('marks the outbox row failed with the reason when the SMTP server is down', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const mailing = await startTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${closedPort}` },
      database: t.database,
    });
    try {
      await t.user('smtp-down@example.com');
      const res = await mailing
        .client()
        .post('/auth/v1/request-password-reset', { email: 'smtp-down@example.com' });
      expect(res.status).toBe(200);
      await mailing.deps.mailer.settled();

      const [row] = await t.outboxFor('smtp-down@example.com', 'password_reset');
      expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
      expect(row!.last_error).toEqual(expect.any(String));
      expect(row!.last_error).not.toBe('');
    } finally {
      await mailing.close();
    }
  });
});
