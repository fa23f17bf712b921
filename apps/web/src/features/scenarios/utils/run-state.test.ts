import { describe, expect, it } from 'vitest';
import type { ScenarioRunEvent } from '@chorus/shared/api/scenarios';
import { idleRun, progressText, runReducer, type LiveRun, type RunAction } from './run-state';

const targets = [
  { provider: 'openai', model: 'gpt-5-mini' },
  { provider: 'mistral', model: 'mistral-small-latest' },
];
const result = (over: Partial<Extract<ScenarioRunEvent, { type: 'result' }>['result']> = {}) => ({
  provider: 'openai',
  model: 'gpt-5-mini',
  text: 'Hello there',
  ttft_ms: 120,
  latency_ms: 900,
  input_tokens: 12,
  output_tokens: 3,
  cost_usd: 0.00001,
  error: null,
  ...over,
});

const play = (...actions: RunAction[]): LiveRun => actions.reduce(runReducer, idleRun);
const event = (e: ScenarioRunEvent): RunAction => ({ type: 'event', event: e });

describe('runReducer', () => {
  it('builds each column from its deltas, first token and result, interleaved', () => {
    const run = play(
      { type: 'begin', targets },
      event({ type: 'start', run_id: 'r1', targets }),
      event({ type: 'delta', target: 1, text: 'Bon' }),
      event({ type: 'first_token', target: 0, ttft_ms: 120 }),
      event({ type: 'delta', target: 0, text: 'Hello ' }),
      event({ type: 'delta', target: 1, text: 'jour' }),
      event({ type: 'delta', target: 0, text: 'there' }),
    );
    expect(run.runId).toBe('r1');
    expect(run.columns.map((c) => [c.status, c.text])).toEqual([
      ['streaming', 'Hello there'],
      ['streaming', 'Bonjour'],
    ]);
    expect(run.columns[0]?.ttftMs).toBe(120);
    expect(progressText(run.phase, run.columns)).toBe('Running: 0 of 2 models finished.');

    const done = [
      event({ type: 'result', target: 0, result: result() }),
      event({
        type: 'result',
        target: 1,
        result: result({
          provider: 'mistral',
          model: 'mistral-small-latest',
          text: '',
          error: { code: 'keys:missing', message: 'No Mistral API key is available to you.' },
        }),
      }),
      event({ type: 'end', run_id: 'r1' }),
    ].reduce(runReducer, run);
    expect(done.phase).toBe('done');
    expect(done.columns[0]).toMatchObject({ status: 'done', latencyMs: 900, costUsd: 0.00001 });
    expect(done.columns[1]).toMatchObject({ status: 'failed', text: 'Bonjour' });
    expect(progressText(done.phase, done.columns)).toBe('Done: 1 of 2 models answered, 1 failed.');
  });

  it('marks the open columns stopped on Stop and keeps what arrived', () => {
    const run = play(
      { type: 'begin', targets },
      event({ type: 'start', run_id: 'r1', targets }),
      event({ type: 'delta', target: 0, text: 'Half an ans' }),
      event({ type: 'result', target: 1, result: result({ provider: 'mistral' }) }),
      { type: 'stop' },
    );
    expect(run.phase).toBe('stopped');
    expect(run.columns.map((c) => c.status)).toEqual(['stopped', 'done']);
    expect(run.columns[0]?.text).toBe('Half an ans');
    expect(progressText(run.phase, run.columns)).toBe('Stopped: 1 of 2 models had finished.');
  });

  it('ignores events for a column that does not exist', () => {
    const run = play(
      { type: 'begin', targets },
      event({ type: 'start', run_id: 'r1', targets }),
      event({ type: 'delta', target: 7, text: 'lost' }),
    );
    expect(run.columns.map((c) => c.text)).toEqual(['', '']);
  });
});
