import type {
  TestCell,
  TestRunBrief,
  TestRunMatrix,
  TestSet,
  TestSetCase,
  TestTargetTotals,
} from '@chorus/shared/api/test-runs';
import type { RunStatus } from '../api/test-runs';

// Test data for the test runner's pages, shaped as the contract says the server sends it.

export const setId = '5b0e3f0a-8c1d-4a3e-9f2b-7c6d5e4f3a21';
export const promptId = '3c9a7b1e-2d4f-4e8a-9b6c-1a2b3c4d5e6f';
export const customAiId = '6d1c0f9e-0d3b-4d7e-9a55-2f6f0b1c2d3e';
export const caseId = 'a1b2c3d4-0000-4000-8000-000000000001';
export const otherCaseId = 'a1b2c3d4-0000-4000-8000-000000000002';
export const runId = 'b1b2c3d4-0000-4000-8000-000000000010';
export const baselineId = 'b1b2c3d4-0000-4000-8000-000000000009';
export const stamp = '2026-01-01T00:00:00.000Z';

export const runBrief = (over: Partial<TestRunBrief> = {}): TestRunBrief => ({
  id: runId,
  test_set_id: setId,
  name: 'Support replies #2',
  status: 'done',
  done: 12,
  total: 12,
  pass_rate: 0.75,
  targets: [
    { provider: 'openai', model: 'gpt-5-mini' },
    { provider: 'anthropic', model: 'claude-sonnet-4-5' },
  ],
  repeats: 3,
  created_at: '2026-01-02T10:00:00.000Z',
  finished_at: '2026-01-02T10:01:00.000Z',
  ...over,
});

export const testSet = (over: Partial<TestSet> = {}): TestSet => ({
  id: setId,
  name: 'Support replies',
  description: 'Refunds and greetings',
  subject: { kind: 'prompt', id: promptId },
  subject_name: 'Reply to a ticket',
  targets: [{ provider: 'openai', model: 'gpt-5-mini' }],
  repeats: 2,
  notify: true,
  case_count: 2,
  last_run: null,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

export const testCase = (over: Partial<TestSetCase> = {}): TestSetCase => ({
  id: caseId,
  test_set_id: setId,
  name: 'Refund request',
  input: '',
  variables: { topic: 'refund' },
  expected_output: null,
  assertions: [{ type: 'contains', values: ['refund'], mode: 'any', ignore_case: true }],
  position: 0,
  created_at: stamp,
  updated_at: stamp,
  ...over,
});

export const runStatus = (over: Partial<RunStatus> = {}): RunStatus => ({
  ...runBrief(),
  source: 'app',
  error: null,
  estimated_cost_usd: 0.05,
  started_at: '2026-01-02T10:00:00.000Z',
  summary: null,
  url: `/test-runner/runs/${runId}`,
  ...over,
});

export const cell = (over: Partial<TestCell> = {}): TestCell => ({
  case_id: caseId,
  target: 0,
  runs: 3,
  passed: 3,
  errors: 0,
  pass_rate: 1,
  latency_p50_ms: 850,
  latency_p95_ms: 1_200,
  input_tokens: 300,
  output_tokens: 90,
  cost_usd: 0.0012,
  assertions: [{ type: 'contains', passed: 3, total: 3, reason: null }],
  change: null,
  previous_pass_rate: null,
  ...over,
});

export const totals = (over: Partial<TestTargetTotals> = {}): TestTargetTotals => ({
  target: 0,
  runs: 6,
  passed: 5,
  errors: 0,
  pass_rate: 5 / 6,
  latency_p50_ms: 900,
  latency_p95_ms: 1_400,
  input_tokens: 600,
  output_tokens: 180,
  cost_usd: 0.0024,
  ...over,
});

export const matrix = (over: Partial<TestRunMatrix> = {}): TestRunMatrix => ({
  run: runStatus(),
  cases: [
    {
      id: caseId,
      name: 'Refund request',
      assertions: [{ type: 'contains', values: ['refund'], mode: 'any', ignore_case: true }],
    },
    { id: otherCaseId, name: 'Greeting', assertions: [] },
  ],
  cells: [],
  totals: [],
  compared_to: null,
  ...over,
});
