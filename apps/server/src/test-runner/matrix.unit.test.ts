import { describe, expect, it } from 'vitest';
import type { AssertionResult } from '@chorus/shared/api/test-runs';
import {
  buildCells,
  buildTotals,
  changeOf,
  compareCells,
  countChanges,
  percentile,
  type MatrixCase,
  type MatrixResult,
} from './matrix.ts';

const verdict = (passed: boolean, reason = passed ? 'ok' : 'nope'): AssertionResult => ({
  type: 'contains',
  passed,
  reason,
  score: null,
});

const result = (over: Partial<MatrixResult>): MatrixResult => ({
  case_id: 'a',
  target: 0,
  repeat: 1,
  passed: true,
  error: null,
  assertions: [],
  latency_ms: 100,
  input_tokens: 10,
  output_tokens: 5,
  cost_usd: 0.001,
  ...over,
});

const cases: MatrixCase[] = [
  { id: 'a', assertions: [{ type: 'contains' }, { type: 'regex' }] },
  { id: 'b', assertions: [] },
];

describe('percentile (nearest rank)', () => {
  it('takes the value at the rank ⌈p/100 × n⌉', () => {
    const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([], 50)).toBeNull();
  });
});

describe('the cells of a run', () => {
  it('counts each case × target over its repeats, with each assertion and its last failure', () => {
    const rows = [
      result({ repeat: 1, assertions: [verdict(true), verdict(true)], latency_ms: 300 }),
      result({
        repeat: 2,
        passed: false,
        assertions: [verdict(false, 'first miss'), verdict(true)],
        latency_ms: 100,
      }),
      result({
        repeat: 3,
        passed: false,
        assertions: [verdict(false, 'last miss'), verdict(true)],
        latency_ms: 200,
        cost_usd: null,
      }),
      result({
        target: 1,
        passed: false,
        error: 'The provider failed',
        latency_ms: null,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: null,
      }),
    ];
    const cells = buildCells(cases, 2, rows);
    expect(cells.map((c) => `${c.case_id}:${c.target}`)).toEqual(['a:0', 'a:1', 'b:0', 'b:1']);
    const [a0, a1, b0] = cells;
    expect(a0).toMatchObject({
      runs: 3,
      passed: 1,
      errors: 0,
      pass_rate: 1 / 3,
      latency_p50_ms: 200,
      latency_p95_ms: 300,
      input_tokens: 30,
      output_tokens: 15,
      cost_usd: 0.002,
      change: null,
      previous_pass_rate: null,
    });
    expect(a0!.assertions).toEqual([
      { type: 'contains', passed: 1, total: 3, reason: 'last miss' },
      { type: 'regex', passed: 3, total: 3, reason: null },
    ]);
    // An errored call has no verdicts: its assertions are not counted, and it has no price.
    expect(a1).toMatchObject({ runs: 1, passed: 0, errors: 1, pass_rate: 0, cost_usd: null });
    expect(a1!.assertions.map((x) => x.total)).toEqual([0, 0]);
    expect(a1!.latency_p50_ms).toBeNull();
    expect(b0).toMatchObject({ runs: 0, pass_rate: null, cost_usd: null, assertions: [] });
  });

  it('sums each target over every case', () => {
    const totals = buildTotals(2, [
      result({ case_id: 'a', latency_ms: 100 }),
      result({ case_id: 'b', passed: false, latency_ms: 400, cost_usd: 0.002 }),
      result({ target: 1, cost_usd: null }),
    ]);
    expect(totals).toEqual([
      {
        target: 0,
        runs: 2,
        passed: 1,
        errors: 0,
        pass_rate: 0.5,
        latency_p50_ms: 100,
        latency_p95_ms: 400,
        input_tokens: 20,
        output_tokens: 10,
        cost_usd: 0.003,
      },
      expect.objectContaining({ target: 1, runs: 1, pass_rate: 1, cost_usd: null }),
    ]);
  });
});

describe('comparing with an earlier run', () => {
  it('reads a lower pass rate as a regression, a higher one as an improvement', () => {
    expect(changeOf(0.5, 1)).toBe('regressed');
    expect(changeOf(1, 0.5)).toBe('improved');
    expect(changeOf(1, 1)).toBe('same');
    expect(changeOf(1, null)).toBe('new');
    expect(changeOf(null, 1)).toBeNull();
  });

  it('matches cells by case id and by provider and model, not by the target’s position', () => {
    const gpt = { provider: 'openai' as const, model: 'gpt-4o-mini' };
    const claude = { provider: 'anthropic' as const, model: 'claude-3-5-haiku-latest' };
    const mistral = { provider: 'mistral' as const, model: 'mistral-small-latest' };
    // Before: [claude, gpt]; now: [gpt, claude, mistral], with a case the earlier run lacked.
    const before = buildCells(cases.slice(0, 1), 2, [
      result({ target: 0, passed: true }),
      result({ target: 1, passed: true }),
    ]);
    const now = buildCells([...cases, { id: 'c', assertions: [] }], 3, [
      result({ target: 0, passed: false }),
      result({ target: 1, passed: true }),
      result({ target: 2, passed: true }),
      result({ case_id: 'b', target: 0, passed: true }),
    ]);
    const compared = compareCells(now, [gpt, claude, mistral], {
      cells: before,
      targets: [claude, gpt],
    });
    const of = (caseId: string, target: number) =>
      compared.find((c) => c.case_id === caseId && c.target === target)!;
    expect(of('a', 0)).toMatchObject({ change: 'regressed', previous_pass_rate: 1 });
    expect(of('a', 1)).toMatchObject({ change: 'same', previous_pass_rate: 1 });
    expect(of('a', 2)).toMatchObject({ change: 'new', previous_pass_rate: null });
    expect(of('b', 0)).toMatchObject({ change: 'new' });
    expect(of('c', 0)).toMatchObject({ change: null });
    expect(countChanges(compared)).toEqual({ regressions: 1, improvements: 0 });
  });
});
