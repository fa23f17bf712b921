import type {
  AssertionResult,
  AssertionType,
  CellChange,
  TestCell,
  TestTarget,
  TestTargetTotals,
} from '@chorus/shared/api/test-runs';

/** What the matrix reads of a stored result. */
export type MatrixResult = {
  case_id: string;
  target: number;
  repeat: number;
  passed: boolean;
  error: string | null;
  assertions: AssertionResult[];
  latency_ms: number | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
};

/** A case as the run's plan holds it: its id and its assertions' types, in order. */
export type MatrixCase = { id: string; assertions: readonly { type: AssertionType }[] };

/** The nearest-rank percentile of sorted values; null for none. */
export const percentile = (sorted: readonly number[], p: number): number | null => {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
};

const roundUsd = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

type Aggregate = Omit<TestTargetTotals, 'target'>;

const aggregate = (results: readonly MatrixResult[]): Aggregate => {
  const latencies = results
    .map((r) => r.latency_ms)
    .filter((ms): ms is number => ms !== null)
    .sort((a, b) => a - b);
  const priced = results.filter((r) => r.cost_usd !== null);
  const passed = results.filter((r) => r.passed).length;
  return {
    runs: results.length,
    passed,
    errors: results.filter((r) => r.error !== null).length,
    pass_rate: results.length > 0 ? passed / results.length : null,
    latency_p50_ms: percentile(latencies, 50),
    latency_p95_ms: percentile(latencies, 95),
    input_tokens: results.reduce((sum, r) => sum + r.input_tokens, 0),
    output_tokens: results.reduce((sum, r) => sum + r.output_tokens, 0),
    cost_usd: priced.length > 0 ? roundUsd(priced.reduce((sum, r) => sum + r.cost_usd!, 0)) : null,
  };
};

const cellKey = (caseId: string, target: number) => `${caseId}|${target}`;

/**
 * The cells of a run, case × target in the plan's order, over each cell's repeats: pass rate,
 * latency p50/p95 (nearest rank), tokens, cost (null when no result had a price) and, per
 * assertion of the case, how many repeats it passed and the last failure's reason. A cell with no
 * result yet is there with `runs: 0`.
 */
export const buildCells = (
  cases: readonly MatrixCase[],
  targetCount: number,
  results: readonly MatrixResult[],
): TestCell[] => {
  const byCell = new Map<string, MatrixResult[]>();
  for (const r of results) {
    const key = cellKey(r.case_id, r.target);
    const list = byCell.get(key);
    if (list) list.push(r);
    else byCell.set(key, [r]);
  }
  const cells: TestCell[] = [];
  for (const c of cases) {
    for (let target = 0; target < targetCount; target++) {
      const rows = (byCell.get(cellKey(c.id, target)) ?? []).sort((a, b) => a.repeat - b.repeat);
      const assertions = c.assertions.map((a, i) => {
        let passed = 0;
        let total = 0;
        let reason: string | null = null;
        for (const row of rows) {
          const verdict = row.assertions[i];
          if (!verdict) continue;
          total += 1;
          if (verdict.passed) passed += 1;
          else reason = verdict.reason;
        }
        return { type: a.type, passed, total, reason };
      });
      cells.push({
        case_id: c.id,
        target,
        ...aggregate(rows),
        assertions,
        change: null,
        previous_pass_rate: null,
      });
    }
  }
  return cells;
};

/** Totals per target, over every case. */
export const buildTotals = (
  targetCount: number,
  results: readonly MatrixResult[],
): TestTargetTotals[] =>
  Array.from({ length: targetCount }, (_, target) => ({
    target,
    ...aggregate(results.filter((r) => r.target === target)),
  }));

const sameTarget = (a: TestTarget, b: TestTarget) =>
  a.provider === b.provider && a.model === b.model;

/** How a cell's pass rate moved against the earlier one; null when it has not run yet. */
export const changeOf = (
  now: number | null,
  before: number | null | undefined,
): CellChange | null => {
  if (now === null) return null;
  if (before === null || before === undefined) return 'new';
  if (now < before) return 'regressed';
  if (now > before) return 'improved';
  return 'same';
};

/**
 * The cells marked against another run's: matched by case id and by target (provider and model
 * equal, wherever they stand in the other run's list). A cell with nothing to match is `new`.
 */
export const compareCells = (
  cells: readonly TestCell[],
  targets: readonly TestTarget[],
  previous: { cells: readonly TestCell[]; targets: readonly TestTarget[] },
): TestCell[] => {
  const before = new Map(previous.cells.map((c) => [cellKey(c.case_id, c.target), c]));
  const targetMap = targets.map((t) => previous.targets.findIndex((p) => sameTarget(t, p)));
  return cells.map((cell) => {
    const index = targetMap[cell.target] ?? -1;
    const old = index >= 0 ? before.get(cellKey(cell.case_id, index)) : undefined;
    const previousRate = old && old.runs > 0 ? old.pass_rate : null;
    return {
      ...cell,
      change: changeOf(cell.pass_rate, previousRate),
      previous_pass_rate: previousRate,
    };
  });
};

/** Cells that got worse and better, for the run's summary. */
export const countChanges = (cells: readonly TestCell[]) => ({
  regressions: cells.filter((c) => c.change === 'regressed').length,
  improvements: cells.filter((c) => c.change === 'improved').length,
});
