import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { TestResultRow } from '../db/repositories/test-runs.ts';
import { csvField, resultsCsv } from './export.ts';
import type { PlanCase } from './plan.ts';

const planCase = (over: Partial<PlanCase>): PlanCase => ({
  id: 'c1',
  name: 'Greets',
  input: 'Say hi',
  variables: {},
  expected_output: null,
  assertions: [],
  ...over,
});

const row = (over: Partial<TestResultRow>): TestResultRow => ({
  id: 1,
  run_id: 'r',
  user_id: 'u',
  case_id: 'c1',
  target: 0,
  repeat: 1,
  input: 'Say hi',
  output: 'Hi',
  error: null,
  passed: true,
  assertions: [],
  latency_ms: 12,
  input_tokens: 3,
  output_tokens: 1,
  cost_usd: 0.0001,
  created_at: new Date('2025-01-01T00:00:00Z'),
  ...over,
});

describe('CSV export', () => {
  it('quotes fields with commas, quotes and line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(0.5)).toBe('0.5');
    expect(csvField(false)).toBe('false');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvField(`${start}HYPERLINK("http://evil")`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('a=1')).toBe('a=1');
  });

  it('writes one row per result in case order, with each assertion’s verdict and reason', () => {
    const cases = [
      planCase({ id: 'c2', name: 'Second', assertions: [] }),
      planCase({
        id: 'c1',
        name: 'First, with a comma',
        assertions: [
          { type: 'contains', values: ['hi'], mode: 'any', ignore_case: true },
          { type: 'is_json' },
        ],
      }),
    ];
    const csv = resultsCsv(
      cases,
      [
        { provider: 'openai', model: 'gpt-4o-mini' },
        { provider: 'anthropic', model: 'claude-3-5-haiku-latest' },
      ],
      [
        row({ case_id: 'c1', target: 1, repeat: 1, passed: false, output: '=cmd|x' }),
        row({
          case_id: 'c1',
          target: 0,
          repeat: 2,
          passed: false,
          assertions: [
            { type: 'contains', passed: true, reason: 'Contains “hi”', score: null },
            { type: 'is_json', passed: false, reason: 'Not valid JSON: "x"', score: null },
          ],
          output: 'line one\nline two',
        }),
        row({ case_id: 'c2', error: 'The provider failed', passed: false, cost_usd: null }),
      ],
    );
    const records = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual([
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
      'assertion_1',
      'assertion_1_passed',
      'assertion_1_reason',
      'assertion_2',
      'assertion_2_passed',
      'assertion_2_reason',
      'output',
    ]);
    expect(records.map((r) => `${r.case}|${r.model}|${r.repeat}`)).toEqual([
      'Second|gpt-4o-mini|1',
      'First, with a comma|gpt-4o-mini|2',
      'First, with a comma|claude-3-5-haiku-latest|1',
    ]);
    expect(records[0]).toMatchObject({ error: 'The provider failed', cost_usd: '' });
    expect(records[1]).toMatchObject({
      assertion_1: 'contains',
      assertion_1_passed: 'true',
      assertion_2_passed: 'false',
      assertion_2_reason: 'Not valid JSON: "x"',
      output: 'line one\nline two',
    });
    expect(records[2]!.output).toBe("'=cmd|x");
  });
});
