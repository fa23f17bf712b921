import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule } from '@chorus/shared/api/schedules';
import { connectPostgres, type Database } from '../db/client.ts';
import { scheduleRuns, schedules } from '../db/schema/index.ts';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { runOccurrence, tickSchedules, type ScheduleRunJob } from './occurrences.ts';

// Two app instances on one PostgreSQL, ticking at the same moment: each due occurrence runs once.
// PGlite belongs to one process, so there the same holds for two ticks in parallel on one app.

const SCHEDULES = 6;
const now = new Date('2099-06-01T09:00:15Z');

let shared: Awaited<ReturnType<typeof createPostgresDatabaseUrl>> | undefined;
const databases: Database[] = [];
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (testDriver() === 'postgres') {
    shared = await createPostgresDatabaseUrl();
    for (let i = 0; i < 2; i += 1) databases.push(connectPostgres(shared.url));
    // Shared secrets, as several instances need (README), so B reads the key A stored.
    const env = {
      AUTH_SECRET: 'two-ticks-auth-secret-0123456789abcdef',
      KEY_ENCRYPTION_SECRET: 'two-ticks-key-secret-0123456789abcdef',
    };
    a = await startTestApp({ providerSim: true, database: databases[0], env });
    b = await startTestApp({ providerSim: true, database: databases[1], env });
  } else {
    a = await startTestApp({ providerSim: true });
    b = a;
  }
});
afterAll(async () => {
  await a?.close();
  if (b !== a) await b?.close();
  for (const database of databases) await database.close();
  await shared?.drop();
});

describe(`scheduled occurrences on ${testDriver() === 'postgres' ? 'two instances' : 'one PGlite'}`, () => {
  it('runs each due occurrence exactly once when both tick at the same moment', async () => {
    const ann = await a.user('two-ticks@example.com');
    expect(
      (await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' })).status,
    ).toBe(200);
    const prompt = await ann.post<{ id: string }>('/rest/v1/prompts', {
      title: 'Ping',
      content: 'Say hello.',
    });
    const ids: string[] = [];
    for (let i = 0; i < SCHEDULES; i += 1) {
      const res = await ann.post<Schedule>('/rest/v1/schedules', {
        name: `Ping ${i}`,
        cron: '0 9 * * *',
        time_zone: 'UTC',
        email_completed: false,
        target: { kind: 'prompt', prompt_id: prompt.body.id, provider: 'openai' },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    await a.db
      .update(schedules)
      .set({ next_run_at: new Date('2099-06-01T09:00:00Z') })
      .where(inArray(schedules.id, ids));

    const ranOn: string[] = [];
    const on = (app: TestApp, name: string) => async (job: ScheduleRunJob) => {
      ranOn.push(name);
      await runOccurrence(app.deps, job);
    };
    const [claimedA, claimedB] = await Promise.all([
      tickSchedules(a.deps, now, on(a, 'a')),
      tickSchedules(b.deps, now, on(b, 'b')),
    ]);

    expect(claimedA.length + claimedB.length).toBe(SCHEDULES);
    expect(ranOn).toHaveLength(SCHEDULES);
    const rows = await a.db
      .select()
      .from(scheduleRuns)
      .where(inArray(scheduleRuns.schedule_id, ids));
    expect(rows).toHaveLength(SCHEDULES);
    expect(new Set(rows.map((r) => r.schedule_id)).size).toBe(SCHEDULES);
    expect(rows.every((r) => r.status === 'complete' && r.trigger === 'cron')).toBe(true);
    for (const id of ids) {
      const [row] = await b.db.select().from(schedules).where(eq(schedules.id, id));
      expect(row!.next_run_at?.toISOString()).toBe('2099-06-02T09:00:00.000Z');
    }
  });
});
