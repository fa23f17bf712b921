import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailOutboxItem, EmailOutboxList } from '@chorus/shared/api/email';
import { hiddenContentMarker } from '@chorus/shared/email';
import { messages } from '@chorus/shared/messages';
import { adminAuditLogs, emailOutbox, profiles } from '../../../../db/schema/index.ts';
import { startSmtpSink, type SmtpSink } from '../../../../email/testing/smtp-sink.ts';
import { emailIdentity } from '../../../../email/identity.ts';
import { startTestApp, type TestApp } from '../../../../test/harness.ts';

const BASE = '/rest/v1/admin/email-outbox';

let t: TestApp;
let sink: SmtpSink;
type Client = Awaited<ReturnType<TestApp['user']>>;
let admin: Client;
let plain: Client;

beforeAll(async () => {
  sink = await startSmtpSink();
  // No SMTP here: every mail stays pending in the outbox until a resend through `smtp` below.
  t = await startTestApp();
  admin = await t.user('outbox-root@example.com');
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
  plain = await t.user('outbox-plain@example.com');
  await t.deps.mailer.settled();
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const welcomeOf = async (address: string) => (await t.outboxFor(address, 'welcome'))[0]!;

describe('admin e-mail outbox guard', () => {
  it.each([
    ['GET', BASE],
    ['GET', `${BASE}/00000000-0000-4000-8000-000000000000`],
    ['POST', `${BASE}/00000000-0000-4000-8000-000000000000/resend`],
  ] as const)(
    'refuses %s %s to a guest with 401 and a plain user with 403',
    async (method, url) => {
      const guest = await t.client().request(method, url, method === 'POST' ? {} : undefined);
      expect(guest.status).toBe(401);
      expect(guest.body).toMatchObject({ error: messages.auth.required });
      const res = await plain.request(method, url, method === 'POST' ? {} : undefined);
      expect(res.status).toBe(403);
    },
  );

  it('does not let a plain user open or resend a real row of someone else', async () => {
    const row = await welcomeOf(admin.email);
    expect((await plain.get(`${BASE}/${row.id}`)).status).toBe(403);
    expect((await plain.post(`${BASE}/${row.id}/resend`)).status).toBe(403);
    expect(await t.db.select().from(adminAuditLogs)).toEqual([]);
  });
});

describe('a user’s own content in the outbox', () => {
  const secretName = 'Quarterly forecast for the board';
  const secretReply = 'Revenue falls 42 percent; tell nobody yet.';
  let rootAdmin: Client;
  let id: string;

  beforeAll(async () => {
    rootAdmin = await t.user('outbox-super@example.com');
    await t.db.update(profiles).set({ role: 'super_admin' }).where(eq(profiles.id, rootAdmin.id));
    // The run-completed mail a plain user has Chorus send them: their run and the model's reply.
    const sent = await plain.post<{ id: string }>('/functions/v1/send-email', {
      to: plain.email,
      subject: `Run completed: ${secretName}`,
      type: 'run_completed',
      runName: secretName,
      responseText: secretReply,
    });
    expect(sent.status).toBe(200);
    id = sent.body.id;
  });

  const readable = (mail: EmailOutboxItem) => `${mail.subject}\n${mail.html}\n${mail.text}`;

  it('is hidden from an admin in the list and the mail, saying so', async () => {
    const list = await admin.get<EmailOutboxList>(BASE);
    const row = list.body.emails.find((m) => m.id === id)!;
    expect(row).toMatchObject({ subject: hiddenContentMarker, content_hidden: true });

    const mail = await admin.get<EmailOutboxItem>(`${BASE}/${id}`);
    expect(mail.status).toBe(200);
    expect(mail.body.content_hidden).toBe(true);
    expect(readable(mail.body)).not.toContain(secretName);
    expect(readable(mail.body)).not.toContain(secretReply);
    expect(mail.body.text).toContain(hiddenContentMarker);
    // What the mail is and where it went stay readable.
    expect(mail.body).toMatchObject({ template: 'run_completed', to: [plain.email] });
    expect(mail.body.html).toContain('Your run has completed');
  });

  it('is shown to a super admin', async () => {
    const mail = await rootAdmin.get<EmailOutboxItem>(`${BASE}/${id}`);
    expect(mail.body.content_hidden).toBe(false);
    expect(mail.body.subject).toBe(`Run completed: ${secretName}`);
    expect(mail.body.text).toContain(secretReply);
    const list = await rootAdmin.get<EmailOutboxList>(BASE);
    expect(list.body.emails.find((m) => m.id === id)?.content_hidden).toBe(false);
  });

  it('leaves mail without user content whole for an admin', async () => {
    const welcome = await welcomeOf(plain.email);
    const mail = await admin.get<EmailOutboxItem>(`${BASE}/${welcome.id}`);
    expect(mail.body).toMatchObject({ subject: 'Welcome to Chorus', content_hidden: false });
  });

  it('stays out of the audit log of a resend, which every admin reads', async () => {
    const res = await rootAdmin.post(`${BASE}/${id}/resend`);
    expect(res.status).toBe(200);
    const [audit] = await t.db
      .select()
      .from(adminAuditLogs)
      .where(and(eq(adminAuditLogs.record_id, id), eq(adminAuditLogs.action, 'resend_email')));
    expect(audit!.details).toMatchObject({ subject: hiddenContentMarker });
    expect(JSON.stringify(audit!.details)).not.toContain(secretName);
  });

  it('is not reachable by its owner or another plain user through the admin API', async () => {
    expect((await plain.get(`${BASE}/${id}`)).status).toBe(403);
    expect((await plain.get(BASE)).status).toBe(403);
  });
});

describe('admin e-mail outbox', () => {
  it('lists every mail newest first and filters by status', async () => {
    const all = await admin.get<EmailOutboxList>(BASE);
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    expect(all.body.emails.map((m) => m.to[0])).toEqual(
      expect.arrayContaining([admin.email, plain.email]),
    );
    const first = all.body.emails[0]!;
    expect(first).not.toHaveProperty('html');

    const pending = await admin.get<EmailOutboxList>(`${BASE}?status=pending`);
    expect(pending.body.emails.every((m) => m.status === 'pending')).toBe(true);
    const sent = await admin.get<EmailOutboxList>(`${BASE}?status=sent`);
    expect(sent.body).toEqual({ emails: [], total: 0 });
    expect((await admin.get(`${BASE}?status=lost`)).status).toBe(400);
  });

  it('opens one mail with its HTML and text parts, and 404s an unknown id', async () => {
    const row = await welcomeOf(plain.email);
    const res = await admin.get<EmailOutboxItem>(`${BASE}/${row.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: row.id,
      subject: 'Welcome to Chorus',
      template: 'welcome',
    });
    expect(res.body.html).toContain('<html');
    expect(res.body.text).toContain('/unsubscribe?email=');
    expect((await admin.get(`${BASE}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await admin.get(`${BASE}/not-a-uuid`)).status).toBe(400);
  });

  it('resends through SMTP, marks the row sent and writes the audit log', async () => {
    // Same database and secret, so the admin's session cookie holds there too.
    const mailing = await startTestApp({
      env: {
        SMTP_URL: sink.url,
        AUTH_SECRET: t.config.authSecret,
        // One deployment: the same key opens what the first instance sealed.
        KEY_ENCRYPTION_SECRET: t.config.keyEncryptionSecret,
      },
      database: t.database,
    });
    try {
      const row = await welcomeOf(plain.email);
      const res = await mailing.client().request(
        'POST',
        `${BASE}/${row.id}/resend`,
        {},
        {
          cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: row.id, status: 'sent', attempts: 1 });
      expect(sink.to(plain.email).map((r) => r.mail.subject)).toEqual(['Welcome to Chorus']);

      const audit = await t.db
        .select()
        .from(adminAuditLogs)
        .where(
          and(eq(adminAuditLogs.record_id, row.id), eq(adminAuditLogs.action, 'resend_email')),
        );
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        admin_id: admin.id,
        table_name: 'email_outbox',
        details: { to: [plain.email], subject: 'Welcome to Chorus', outcome: 'sent' },
      });
    } finally {
      await mailing.close();
    }
  });

  it('refuses to resend a welcome mail to an address that unsubscribed', async () => {
    const row = await welcomeOf(admin.email);
    await t.client().post('/rest/v1/unsubscribe', {
      email: admin.email,
      token: emailIdentity(t.config).unsubscribeToken(admin.email),
    });
    const res = await admin.post(`${BASE}/${row.id}/resend`);
    expect(res.status).toBe(409);
    const [after] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.id, row.id));
    expect(after!.status).toBe('pending');
  });
});
