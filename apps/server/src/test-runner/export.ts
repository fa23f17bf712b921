import type {
  AssertionResult,
  TestResult,
  TestRunStatusBody,
  TestTarget,
} from '@chorus/shared/api/test-runs';
import type { TestResultRow } from '../db/repositories/test-runs.ts';
import type { PlanCase } from './plan.ts';

/** A stored result as the contract has it. */
export const toTestResult = (row: TestResultRow): TestResult => ({
  id: String(row.id),
  case_id: row.case_id,
  target: row.target,
  repeat: row.repeat,
  input: row.input,
  output: row.output,
  error: row.error,
  passed: row.passed,
  assertions: row.assertions as AssertionResult[],
  latency_ms: row.latency_ms,
  input_tokens: row.input_tokens,
  output_tokens: row.output_tokens,
  cost_usd: row.cost_usd,
  created_at: row.created_at.toISOString(),
});

/**
 * A spreadsheet would run a cell that starts with one of these as a formula (CSV injection,
 * OWASP): such a text cell is prefixed with a single quote, so it is shown, never evaluated.
 */
const formulaStart = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
export const csvField = (value: string | number | boolean | null): string => {
  if (value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const csvLine = (fields: (string | number | boolean | null)[]) => fields.map(csvField).join(',');

/** Results in case order (the plan's), then target, then repeat. */
const ordered = (cases: readonly PlanCase[], rows: readonly TestResultRow[]) => {
  const position = new Map(cases.map((c, i) => [c.id, i]));
  return [...rows].sort(
    (a, b) =>
      (position.get(a.case_id) ?? Infinity) - (position.get(b.case_id) ?? Infinity) ||
      a.target - b.target ||
      a.repeat - b.repeat,
  );
};

/**
 * One row per result: the case, the model, the repeat (1, 2, …), the verdict, the numbers, each
 * assertion's verdict and reason (as many columns as the case with the most), and the output.
 */
export const resultsCsv = (
  cases: readonly PlanCase[],
  targets: readonly TestTarget[],
  rows: readonly TestResultRow[],
): string => {
  const names = new Map(cases.map((c) => [c.id, c.name]));
  const width = Math.max(0, ...cases.map((c) => c.assertions.length));
  const header = [
    'case',
    'provider',
    'model',
    'repeat',
    'passed',
    'error',
    'latency_ms',
    'input_tokens',
    'output_tokens',
    'cost_usd',
    ...Array.from({ length: width }, (_, i) => [
      `assertion_${i + 1}`,
      `assertion_${i + 1}_passed`,
      `assertion_${i + 1}_reason`,
    ]).flat(),
    'output',
  ];
  const lines = [csvLine(header)];
  for (const row of ordered(cases, rows)) {
    const target = targets[row.target];
    const verdicts = row.assertions as AssertionResult[];
    lines.push(
      csvLine([
        names.get(row.case_id) ?? row.case_id,
        target?.provider ?? null,
        target?.model ?? null,
        row.repeat,
        row.passed,
        row.error,
        row.latency_ms,
        row.input_tokens,
        row.output_tokens,
        row.cost_usd,
        ...Array.from({ length: width }, (_, i) => {
          const v = verdicts[i];
          return v ? [v.type, v.passed, v.reason] : [null, null, null];
        }).flat(),
        row.output,
      ]),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
};

/** The run, its cases as they were when it started, and every result in full. */
export const resultsJson = (
  run: TestRunStatusBody,
  cases: readonly PlanCase[],
  rows: readonly TestResultRow[],
) => ({
  run,
  cases,
  results: ordered(cases, rows).map(toTestResult),
});
