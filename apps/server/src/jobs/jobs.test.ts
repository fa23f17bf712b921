import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedJobs, JobQueues } from '@chorus/shared/api/jobs';
import { messageFor } from '@chorus/shared/error-catalogue';
import { rowsOf } from '../db/client.ts';
import { adminAuditLogs, profiles, sessions, verifications } from '../db/schema/index.ts';
import { eventually } from '../email/testing/smtp-sink.ts';
import type { Deps } from '../http/app-env.ts';
import { createLogger } from '../logger.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { jobList } from './job-list.ts';
import { pruneExpiredAuthJob } from './prune-expired-auth.ts';
import { createJobQueue, defineJob } from './queue.ts';

// Jobs of the test's own beside the server's list: one due every second on a cron schedule, one that fails on its first run and succeeds when run again.
let ticks = 0;
const tickJob = defineJob<Deps, object>({
  name: 'test-tick',
  title: 'Tick',
  cron: '* * * * * *',
  run: async () => {
    ticks += 1;
  },
});
const runsOf = new Map<string, number>();
const flakyJob = defineJob<Deps, { key: string }>({
  name: 'test-flaky',
  title: 'Flaky',
  run: async ({ key }) => {
    const runs = (runsOf.get(key) ?? 0) + 1;
    runsOf.set(key, runs);
    if (runs === 1) throw new Error(`Mailbox on fire (${key})`);
  },
});

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['user']>>;
let plain: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  t = await startTestApp({ jobs: { extra: [tickJob, flakyJob] } });
  await t.user('jobs-root@example.com');
  admin = await t.user('jobs-admin@example.com');
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
  plain = await t.user('jobs-plain@example.com');
});
afterAll(() => t.close());

const queues = async () => (await admin.get<JobQueues>('/rest/v1/admin/jobs')).body.queues;
const queue = async (name: string) => (await queues()).find((q) => q.name === name)!;
const failedOf = async (name: string) =>
  (await admin.get<FailedJobs>(`/rest/v1/admin/jobs/${name}/failed`)).body.jobs;

describe('the job list', () => {
  it('registers every queue of the list, in its order, and stores each cron schedule in UTC', async () => {
    const listed = [...jobList(), tickJob, flakyJob];
    const all = await queues();
    expect(all.map((q) => [q.name, q.cron])).toEqual(listed.map((j) => [j.name, j.cron ?? null]));
    for (const q of all) expect(q.next_run_at === null).toBe(q.cron === null);

    const stored = rowsOf<{ name: string; cron: string; timezone: string }>(
      await t.db.execute(sql`select name, cron, timezone from pgboss.schedule order by name`),
    );
    expect(stored).toEqual(
      listed
        .filter((j) => j.cron)
        .map((j) => ({ name: j.name, cron: j.cron, timezone: 'UTC' }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it('runs a cron schedule when it comes due', async () => {
    // pg-boss sends at most one job per schedule a minute, whatever the expression's resolution.
    await eventually(async () => ticks >= 1 || undefined, 'a tick of the schedule', 20_000);
    await eventually(
      async () => ((await queue('test-tick')).last_completed_at ? true : undefined),
      'the back office to see the completed ticks',
    );
  });

  it('shows a job that failed for good with its error, and an admin retry runs it again', async () => {
    const key = randomUUID();
    await t.deps.jobs.send('test-flaky', { key });
    const [failed] = await eventually(async () => {
      const jobs = await failedOf('test-flaky');
      return jobs.length > 0 ? jobs : undefined;
    }, 'the job to fail');
    expect(failed!.error).toBe(`Mailbox on fire (${key})`);
    expect((await queue('test-flaky')).failed).toBe(1);

    const res = await admin.post(`/rest/v1/admin/jobs/test-flaky/failed/${failed!.id}/retry`);
    expect(res).toMatchObject({ status: 200, body: { retried: true } });
    await eventually(async () => (runsOf.get(key) === 2 ? true : undefined), 'the second run');
    await eventually(
      async () => ((await queue('test-flaky')).failed === 0 ? true : undefined),
      'the failure to clear',
    );
    expect(await failedOf('test-flaky')).toEqual([]);

    const audit = await t.db
      .select()
      .from(adminAuditLogs)
      .where(and(eq(adminAuditLogs.action, 'retry_job'), eq(adminAuditLogs.record_id, failed!.id)));
    expect(audit).toMatchObject([{ admin_id: admin.id, details: { queue: 'test-flaky' } }]);

    const again = await admin.post(`/rest/v1/admin/jobs/test-flaky/failed/${failed!.id}/retry`);
    expect(again).toMatchObject({
      status: 404,
      body: { code: 'jobs:failed_job_not_found', error: messageFor('jobs:failed_job_not_found') },
    });
  });

  it('answers an unknown queue with 404 and a malformed name or id with 400', async () => {
    expect((await admin.get('/rest/v1/admin/jobs/no-such-queue/failed')).body).toMatchObject({
      code: 'jobs:queue_not_found',
    });
    expect((await admin.get('/rest/v1/admin/jobs/Not_A_Queue/failed')).status).toBe(400);
    expect((await admin.post('/rest/v1/admin/jobs/test-flaky/failed/42/retry')).status).toBe(400);
  });

  it('keeps the queues from a plain user and a guest', async () => {
    expect((await plain.get('/rest/v1/admin/jobs')).status).toBe(403);
    expect((await plain.get('/rest/v1/admin/jobs/test-flaky/failed')).status).toBe(403);
    const id = randomUUID();
    const retry = await plain.post(`/rest/v1/admin/jobs/test-flaky/failed/${id}/retry`);
    expect(retry.status).toBe(403);
    expect((await t.client().get('/rest/v1/admin/jobs')).status).toBe(401);
  });

  it('deletes expired sessions and tokens and keeps live ones', async () => {
    const past = new Date(Date.now() - 60_000);
    const [live] = await t.db.select().from(sessions).where(eq(sessions.userId, plain.id));
    await t.db.insert(sessions).values({
      id: randomUUID(),
      token: randomUUID(),
      userId: plain.id,
      expiresAt: past,
    });
    await t.db.insert(verifications).values([
      { id: randomUUID(), identifier: 'reset-old', value: 'x', expiresAt: past },
      {
        id: randomUUID(),
        identifier: 'reset-new',
        value: 'y',
        expiresAt: new Date(Date.now() + 60_000),
      },
    ]);

    await pruneExpiredAuthJob.run({}, t.deps);

    const left = await t.db.select().from(sessions).where(eq(sessions.userId, plain.id));
    expect(left.map((s) => s.id)).toEqual([live!.id]);
    const tokens = await t.db.select().from(verifications);
    expect(tokens.map((v) => v.identifier)).toContain('reset-new');
    expect(tokens.map((v) => v.identifier)).not.toContain('reset-old');
  });

  it('drops the schedule of a job that left the list when the server starts again', async () => {
    await t.deps.jobs.stop();
    expect((await admin.get('/rest/v1/admin/jobs')).body).toMatchObject({
      code: 'jobs:unavailable',
      error: messageFor('jobs:unavailable'),
    });
    const restarted = createJobQueue({ database: t.database, log: createLogger('silent') });
    await restarted.start(jobList(), t.deps);
    try {
      const names = rowsOf<{ name: string }>(
        await t.db.execute(sql`select name from pgboss.schedule order by name`),
      ).map((r) => r.name);
      expect(names).toEqual(
        jobList()
          .filter((j) => j.cron)
          .map((j) => j.name)
          .sort(),
      );
    } finally {
      await restarted.stop();
    }
  });
});
