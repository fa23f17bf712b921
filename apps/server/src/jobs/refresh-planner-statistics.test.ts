import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/client.ts';
import { conversations, messages } from '../db/schema/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { refreshPlannerStatisticsJob } from './refresh-planner-statistics.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const analyzedAt = async () =>
  rowsOf<{ at: string | null }>(
    await t.db.execute(
      sql`select coalesce(last_analyze, last_autoanalyze)::text as at
          from pg_stat_user_tables where relname = 'messages'`,
    ),
  )[0]?.at ?? null;

describe('refresh-planner-statistics', () => {
  it('gives the embedded database statistics of its grown tables, so search uses its index', async () => {
    const ann = await t.user('planner-stats@example.com');
    const [conv] = await t.db
      .insert(conversations)
      .values({ user_id: ann.id, title: 'Many' })
      .returning();
    await t.db.execute(sql`
      insert into messages (conversation_id, user_id, role, content)
      select ${conv!.id}::uuid, ${ann.id}, 'user', 'word' || g || ' lorem ipsum'
      from generate_series(1, 5000) g`);
    const before = await analyzedAt();

    await refreshPlannerStatisticsJob.run({}, t.deps);

    if (t.deps.database.driver === 'pglite') {
      expect(await analyzedAt()).not.toBe(before);
      expect(await analyzedAt()).not.toBeNull();
      const plan = rowsOf<{ 'QUERY PLAN': string }>(
        await t.db.execute(sql`explain select id from ${messages}
          where user_id = ${ann.id} and to_tsvector('simple', content) @@ to_tsquery('simple', 'word42:*')`),
      )
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('messages_search_idx');
    }
    // On PostgreSQL the job does nothing: autovacuum keeps the statistics (and may run at any
    // moment, so there is nothing here to assert about when).
  });
});
