import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactFormLimit } from '@chorus/shared/email';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

const SUPPORT = 'contact-desk@chorus.test';
const URL = '/functions/v1/contact';
const message = { name: 'Dee', email: 'dee@example.com', message: 'Where are my chats?' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SUPPORT_EMAIL: SUPPORT } });
});
afterAll(() => t.close());

describe('contact form', () => {
  it('takes a guest’s message into the outbox for the support address, Reply-To the sender', async () => {
    const res = await t.client().post(URL, message);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const [row, ...more] = await t.outboxFor(SUPPORT, 'contact');
    expect(more).toHaveLength(0);
    expect(row).toMatchObject({
      subject: 'Contact form: Dee',
      reply_to: 'dee@example.com',
      status: 'pending',
    });
    expect(row!.text).toContain('Where are my chats?');
  });

  it.each([
    ['no name', { ...message, name: ' ' }, 'Please enter your name.'],
    [
      'a bad e-mail',
      { ...message, email: 'dee-at-example' },
      'Please enter a valid e-mail address.',
    ],
    ['no message', { ...message, message: '' }, 'Please enter a message.'],
  ])('refuses a message with %s', async (_what, body, error) => {
    const res = await t.client().post(URL, body);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toContain(error);
  });

  it('keeps a name on one line in the subject', async () => {
    const res = await t.client().post(URL, { ...message, name: 'Eve\r\nBcc: x@example.com' });
    expect(res.status).toBe(200);
    const rows = await t.outboxFor(SUPPORT, 'contact');
    expect(rows.at(-1)!.subject).toBe('Contact form: Eve Bcc: x@example.com');
  });

  it('answers 429 once one address has sent its budget', async () => {
    const guest = t.client();
    for (let i = 0; i < contactFormLimit.points; i++) {
      expect((await guest.post(URL, message)).status).toBe(200);
    }
    const res = await guest.post(URL, message);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBeTruthy();
    expect((await t.client().post(URL, message)).status).toBe(200);
  });

  it('answers 502 when the mail server is down and no retry is possible; the row stays', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = await startTestApp({
      env: { SUPPORT_EMAIL: 'down-desk@chorus.test', SMTP_URL: `smtp://127.0.0.1:${closedPort}` },
      database: t.database,
    });
    try {
      const res = await down.client().post(URL, message);
      expect(res.status).toBe(502);
      expect((res.body as { error: string }).error).toContain('down-desk@chorus.test');
      const [row] = await t.outboxFor('down-desk@chorus.test', 'contact');
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row!.last_error).toMatch(/ECONNREFUSED/);

      // The welcome mail fails the same way, and the sign-up stands regardless.
      const signUp = await down.client().signUp('down-user@example.com');
      expect(signUp.status).toBe(200);
      await down.deps.mailer.settled();
      const [welcome] = await t.outboxFor('down-user@example.com', 'welcome');
      expect(welcome).toMatchObject({ status: 'failed', attempts: 1 });
    } finally {
      await down.close();
    }
  });
});
