import type { TestRunBrief, TestTarget } from '@chorus/shared/api/test-runs';
import type { testRuns } from '../db/schema/test-runs.ts';

type RunRow = typeof testRuns.$inferSelect;

/** Results that passed every assertion, of those stored; null before the first. */
export const passRate = (passed: number, done: number): number | null =>
  done > 0 ? passed / done : null;

/** A run as lists (the runs list, a test set's last run) show it. */
export const toTestRunBrief = (row: RunRow): TestRunBrief => ({
  id: row.id,
  test_set_id: row.test_set_id,
  name: row.name,
  status: row.status,
  done: row.done,
  total: row.total,
  pass_rate: passRate(row.passed, row.done),
  targets: row.targets as TestTarget[],
  repeats: row.repeats,
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});
