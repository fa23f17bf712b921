import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { accessRequests } from '../../db/schema/index.ts';
import { eventually, startSmtpSink, type SmtpSink } from '../../email/testing/smtp-sink.ts';
import { ACCESS_REQUEST_JOB, PASSWORD_RESET_JOB } from '../../jobs/account-requests.ts';
import { startTestApp, type TestApp } from '../../test/harness.ts';

/**
 * Flows anyone may call with any address answer alike for an address with an account and one
 * without, and do the same work before answering: they queue the request, and the job queue
 * does what differs. (Their timing is measured by bench/account-probe.ts, not asserted here.)
 */
let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ jobs: true, env: { SMTP_URL: sink.url } });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** What the request queued under `job`, by the address it names. */
const queued = async (job: string, email: string) =>
  rowsOf<{ id: string }>(
    await t.db.execute(
      sql`select id from pgboss.job where name = ${job} and data ->> 'email' = ${email}`,
    ),
  );

describe('password reset requests', () => {
  it('answer a known and an unknown address alike, and the known one’s mail arrives', async () => {
    const known = await t.user('privacy-known@example.com');
    const asked = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: known.email, redirectTo: '/x' });
    const unknown = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: 'privacy-nobody@example.com' });

    expect(asked.status).toBe(200);
    expect(unknown.status).toBe(asked.status);
    expect(unknown.body).toEqual(asked.body);
    // Both were queued, one job each: the answer did the same for both.
    expect(await queued(PASSWORD_RESET_JOB, known.email)).toHaveLength(1);
    expect(await queued(PASSWORD_RESET_JOB, 'privacy-nobody@example.com')).toHaveLength(1);

    const mail = await eventually(
      () => sink.to(known.email).find((r) => r.mail.subject === 'Reset your Chorus password'),
      'the reset mail',
    );
    expect(mail.mail.text).toMatch(/\/reset-password\?token=[\w-]+/);
    // The unknown address's job ran too, and sent nothing.
    await eventually(
      async () =>
        rowsOf<{ state: string }>(
          await t.db.execute(
            sql`select state from pgboss.job where name = ${PASSWORD_RESET_JOB}
                and data ->> 'email' = 'privacy-nobody@example.com' and state = 'completed'`,
          ),
        ).length > 0,
      'the unknown address’s job to finish',
    );
    expect(sink.to('privacy-nobody@example.com')).toEqual([]);
    expect(await t.outboxFor('privacy-nobody@example.com')).toEqual([]);
  });

  it('refuses a malformed request with a 400, queueing nothing', async () => {
    const res = await t
      .client()
      .post('/auth/v1/request-password-reset', { email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(await queued(PASSWORD_RESET_JOB, 'not-an-address')).toEqual([]);
  });
});

describe('access requests', () => {
  it('answer a known and an unknown address alike; only the unknown one is recorded', async () => {
    const known = await t.user('privacy-member@example.com');
    const fromMember = await t
      .client()
      .post('/rest/v1/access-requests', { email: known.email, reason: 'Hi' });
    const fromStranger = await t
      .client()
      .post('/rest/v1/access-requests', { email: 'privacy-stranger@example.com', reason: 'Hi' });

    expect(fromMember.status).toBe(202);
    expect(fromStranger.status).toBe(202);
    expect(fromStranger.body).toEqual(fromMember.body);
    expect(await queued(ACCESS_REQUEST_JOB, known.email)).toHaveLength(1);
    expect(await queued(ACCESS_REQUEST_JOB, 'privacy-stranger@example.com')).toHaveLength(1);

    const row = await eventually(
      async () =>
        (
          await t.db
            .select()
            .from(accessRequests)
            .where(eq(accessRequests.email, 'privacy-stranger@example.com'))
        )[0],
      'the stranger’s request',
    );
    expect(row).toMatchObject({ status: 'pending', reason: 'Hi' });
    await eventually(
      async () =>
        rowsOf<{ state: string }>(
          await t.db.execute(
            sql`select state from pgboss.job where name = ${ACCESS_REQUEST_JOB}
                and data ->> 'email' = ${known.email} and state = 'completed'`,
          ),
        ).length > 0,
      'the member’s job to finish',
    );
    expect(
      await t.db.select().from(accessRequests).where(eq(accessRequests.email, known.email)),
    ).toEqual([]);
  });
});
