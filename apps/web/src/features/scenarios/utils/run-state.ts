import type { ScenarioRunEvent, ScenarioRunResult } from '@chorus/shared/api/scenarios';

export type ColumnStatus = 'waiting' | 'streaming' | 'done' | 'failed' | 'stopped';

/** One model's column as the page shows it, live or loaded from a saved run. */
export type RunColumn = {
  provider: string;
  model: string;
  status: ColumnStatus;
  text: string;
  ttftMs: number | null;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  error: { code: string; message: string } | null;
  rating: number | null;
};

export type RunPhase = 'idle' | 'starting' | 'streaming' | 'done' | 'stopped' | 'failed';

export type LiveRun = {
  phase: RunPhase;
  runId: string | null;
  columns: RunColumn[];
  /** Why the whole run failed (refused before it started, or the stream broke). */
  error: { message: string; code: string | undefined } | null;
};

export type RunAction =
  | { type: 'begin'; targets: { provider: string; model: string }[] }
  | { type: 'event'; event: ScenarioRunEvent }
  | { type: 'stop' }
  | { type: 'fail'; message: string; code?: string | undefined }
  | { type: 'reset' };

export const idleRun: LiveRun = { phase: 'idle', runId: null, columns: [], error: null };

const emptyColumn = (target: { provider: string; model: string }): RunColumn => ({
  provider: target.provider,
  model: target.model,
  status: 'waiting',
  text: '',
  ttftMs: null,
  latencyMs: null,
  inputTokens: null,
  outputTokens: null,
  costUsd: null,
  error: null,
  rating: null,
});

const isOpen = (column: RunColumn) => column.status === 'waiting' || column.status === 'streaming';

/** A column as saved in a run. A column still open in a finished run was cut off. */
export const columnFromResult = (result: ScenarioRunResult, runFinished: boolean): RunColumn => ({
  provider: result.provider,
  model: result.model,
  status: result.error
    ? 'failed'
    : result.latency_ms !== null || result.output_tokens !== null
      ? 'done'
      : runFinished
        ? 'stopped'
        : result.text
          ? 'streaming'
          : 'waiting',
  text: result.text,
  ttftMs: result.ttft_ms,
  latencyMs: result.latency_ms,
  inputTokens: result.input_tokens,
  outputTokens: result.output_tokens,
  costUsd: result.cost_usd,
  error: result.error,
  rating: result.rating,
});

const updateColumn = (
  run: LiveRun,
  index: number,
  change: (column: RunColumn) => RunColumn,
): LiveRun => {
  const column = run.columns[index];
  if (!column) return run;
  const columns = run.columns.slice();
  columns[index] = change(column);
  return { ...run, columns };
};

const applyEvent = (run: LiveRun, event: ScenarioRunEvent): LiveRun => {
  switch (event.type) {
    case 'start':
      return {
        ...run,
        phase: 'streaming',
        runId: event.run_id,
        columns: event.targets.map(emptyColumn),
      };
    case 'delta':
      return updateColumn(run, event.target, (column) => ({
        ...column,
        status: isOpen(column) ? 'streaming' : column.status,
        text: column.text + event.text,
      }));
    case 'first_token':
      return updateColumn(run, event.target, (column) => ({
        ...column,
        status: isOpen(column) ? 'streaming' : column.status,
        ttftMs: event.ttft_ms,
      }));
    case 'result':
      return updateColumn(run, event.target, (column) => ({
        ...column,
        provider: event.result.provider,
        model: event.result.model,
        status: event.result.error ? 'failed' : 'done',
        // The result's text is what the server saved; what streamed stays if it sent none.
        text: event.result.text || column.text,
        ttftMs: event.result.ttft_ms ?? column.ttftMs,
        latencyMs: event.result.latency_ms,
        inputTokens: event.result.input_tokens,
        outputTokens: event.result.output_tokens,
        costUsd: event.result.cost_usd,
        error: event.result.error,
      }));
    case 'end':
      return {
        ...run,
        phase: 'done',
        runId: event.run_id,
        columns: run.columns.map((column) =>
          isOpen(column) ? { ...column, status: 'stopped' } : column,
        ),
      };
    default:
      return run;
  }
};

/** The live run after one more thing happened: an event of the stream, Stop, or a failure. */
export const runReducer = (run: LiveRun, action: RunAction): LiveRun => {
  switch (action.type) {
    case 'begin':
      return {
        phase: 'starting',
        runId: null,
        columns: action.targets.map(emptyColumn),
        error: null,
      };
    case 'event':
      return applyEvent(run, action.event);
    case 'stop':
      if (run.phase !== 'starting' && run.phase !== 'streaming') return run;
      return {
        ...run,
        phase: 'stopped',
        columns: run.columns.map((column) =>
          isOpen(column) ? { ...column, status: 'stopped' } : column,
        ),
      };
    case 'fail':
      return {
        ...run,
        phase: 'failed',
        error: { message: action.message, code: action.code },
        columns: run.columns.map((column) =>
          isOpen(column) ? { ...column, status: 'stopped' } : column,
        ),
      };
    case 'reset':
      return idleRun;
    default:
      return run;
  }
};

const count = (columns: RunColumn[], status: ColumnStatus) =>
  columns.filter((column) => column.status === status).length;

/** What the live region reads out: the run's state in one sentence, counting finished columns. */
export const progressText = (phase: RunPhase, columns: RunColumn[]): string => {
  const total = columns.length;
  const answered = count(columns, 'done');
  const failed = count(columns, 'failed');
  const cut = count(columns, 'stopped');
  const of = (n: number) => `${n} of ${total} ${total === 1 ? 'model' : 'models'}`;
  const failures = failed === 0 ? '' : `, ${failed} failed`;
  switch (phase) {
    case 'starting':
      return `Starting the run on ${total} ${total === 1 ? 'model' : 'models'}…`;
    case 'streaming':
      return `Running: ${of(answered + failed)} finished${failures}.`;
    case 'stopped':
      return `Stopped: ${of(answered + failed)} had finished${failures}.`;
    case 'failed':
      return 'The run failed.';
    case 'done':
      return `Done: ${of(answered)} answered${failures}${cut === 0 ? '' : `, ${cut} cut off`}.`;
    default:
      return '';
  }
};
