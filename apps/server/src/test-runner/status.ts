import {
  testRunSummarySchema,
  type TestRunStatusBody,
  type TestRunSummary,
} from '@chorus/shared/api/test-runs';
import type { TestRunRow } from '../db/repositories/test-runs.ts';
import { toTestRunBrief } from './brief.ts';

/** What `test_runs.summary` holds: the contract's summary and how the e-mail went. */
export type StoredSummary = TestRunSummary & {
  notification: { sent: boolean; message: string } | null;
};

/** The results page of a run in the app, relative to APP_URL. */
export const testRunPagePath = (id: string) => `/test-runner/runs/${id}`;

const summaryOf = (row: TestRunRow): TestRunSummary | null => {
  const parsed = testRunSummarySchema.safeParse(row.summary);
  return parsed.success ? parsed.data : null;
};

/** A run's status and progress, for the app and for CI. */
export const toTestRunStatus = (row: TestRunRow, appUrl: string): TestRunStatusBody => {
  const stored = row.summary as Partial<StoredSummary> | null;
  return {
    ...toTestRunBrief(row),
    source: row.source,
    error: row.error,
    estimated_cost_usd: row.estimated_cost_usd,
    started_at: row.started_at?.toISOString() ?? null,
    summary: summaryOf(row),
    url: `${appUrl}${testRunPagePath(row.id)}`,
    notification: stored?.notification ?? null,
  };
};
