import { randomUUID } from 'node:crypto';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  workflowLimits,
  type WorkflowInput,
  type WorkflowRun,
  type WorkflowStepRun,
} from '@chorus/shared/api/workflows';
import {
  endAbandonedWorkflowRuns,
  fieldsOfRow,
  fieldsOfSnapshot,
  WorkflowRunsRepository,
  WorkflowsRepository,
  type WorkflowFields,
  type WorkflowRunPatch,
  type WorkflowRunRow,
} from '../db/repositories/workflows.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { boundOutput, runStep, StepFailure, type StepContext } from './steps.ts';

export type { WorkflowRunRow };

/** A run's limits; tests and callers may tighten them, never loosen the contract's. */
export type RunLimits = {
  runTimeoutMs: number;
  tokenBudget: number;
  costBudgetUsd: number;
};

const defaultLimits: RunLimits = {
  runTimeoutMs: workflowLimits.runTimeoutMs,
  tokenBudget: workflowLimits.tokenBudget,
  costBudgetUsd: workflowLimits.costBudgetUsd,
};

/** How often a running step looks whether its run was cancelled. */
const CANCEL_POLL_MS = 1_000;

export const interruptedMessage = 'The server stopped during the run; retry it.';

/** The runs this instance is running now. */
const runningHere = new Set<string>();

type RunError = NonNullable<WorkflowRun['error']>;

const pendingSteps = (fields: WorkflowFields): WorkflowStepRun[] =>
  fields.steps.map((step) => ({
    step_id: step.id,
    kind: step.kind,
    name: step.name,
    status: 'pending',
    output: null,
    error: null,
    input_tokens: 0,
    output_tokens: 0,
    cost_usd: null,
    duration_ms: null,
    started_at: null,
    finished_at: null,
  }));

const totalsOf = (steps: readonly WorkflowStepRun[]) => {
  const costs = steps.map((s) => s.cost_usd).filter((c): c is number => c !== null);
  return {
    input_tokens: steps.reduce((n, s) => n + s.input_tokens, 0),
    output_tokens: steps.reduce((n, s) => n + s.output_tokens, 0),
    cost_usd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
  };
};

/** What a run hands on (and a schedule e-mails): the output of the last step that ran. */
const finalOutput = (steps: readonly WorkflowStepRun[]): unknown =>
  steps.findLast((s) => s.status === 'done' && s.kind !== 'condition')?.output ?? null;

export const toWorkflowRun = (row: WorkflowRunRow): WorkflowRun => ({
  id: row.id,
  workflow_id: row.workflow_id,
  workflow_name: row.workflow_name,
  version: row.version,
  status: row.status,
  trigger: row.trigger,
  inputs: row.inputs,
  steps: row.steps as WorkflowStepRun[],
  output: row.output ?? null,
  error: row.error_code
    ? { code: row.error_code, message: row.error_message ?? '', step_id: row.error_step_id }
    : null,
  input_tokens: row.input_tokens,
  output_tokens: row.output_tokens,
  cost_usd: row.cost_usd,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
});

const typeWords = { text: 'text', number: 'a number', boolean: 'true or false' } as const;

/**
 * The inputs a run gets: each declared input from `given`, else its default. A required one with
 * neither, or a value of the wrong type, is a 400 that names it; undeclared values are dropped.
 */
export const resolveInputs = (
  declared: readonly WorkflowInput[],
  given: Record<string, unknown>,
): Record<string, string | number | boolean> => {
  const out: Record<string, string | number | boolean> = {};
  for (const input of declared) {
    const raw = Object.hasOwn(given, input.name) ? given[input.name] : undefined;
    const value = raw === undefined || raw === null || raw === '' ? input.default : raw;
    if (value === undefined || value === null || value === '') {
      if (input.required) {
        throw new ApiError(
          400,
          'workflows:missing_input',
          messageFor('workflows:missing_input', { input: input.name }),
        );
      }
      out[input.name] = '';
      continue;
    }
    const wrong = () =>
      new ApiError(
        400,
        'workflows:bad_input',
        messageFor('workflows:bad_input', { input: input.name, type: typeWords[input.type] }),
      );
    if (input.type === 'number') {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw wrong();
      out[input.name] = n;
    } else if (input.type === 'boolean') {
      if (typeof value === 'boolean') out[input.name] = value;
      else if (value === 'true' || value === 'false') out[input.name] = value === 'true';
      else throw wrong();
    } else {
      if (typeof value !== 'string') throw wrong();
      out[input.name] = value;
    }
  }
  return out;
};

/**
 * Stores a queued run of a workflow of the user: the latest version, or `version`, with its
 * definition (what the run runs, and a retry runs again). Inputs are checked against the
 * workflow's typed inputs. The caller starts it: the `workflow-run` job, or a schedule at once.
 */
export const createWorkflowRun = async (
  deps: Deps,
  req: {
    userId: string;
    workflowId: string;
    inputs: Record<string, unknown>;
    version?: number | undefined;
    trigger: 'manual' | 'schedule';
  },
): Promise<WorkflowRunRow> => {
  const db = deps.database.db;
  const workflows = new WorkflowsRepository(db, req.userId);
  const workflow = await workflows.get(req.workflowId);
  if (!workflow) throw new ApiError(404, 'workflows:not_found');
  let fields = fieldsOfRow(workflow);
  let version = workflow.version;
  if (req.version !== undefined && req.version !== workflow.version) {
    const saved = await workflows.version(workflow.id, req.version);
    if (!saved) throw new ApiError(404, 'workflows:version_not_found');
    fields = fieldsOfSnapshot(saved);
    version = saved.version;
  }
  const inputs = resolveInputs(fields.inputs, req.inputs);
  return new WorkflowRunsRepository(db, req.userId).create({
    workflow_id: workflow.id,
    workflow_name: fields.name,
    version,
    definition: fields,
    trigger: req.trigger,
    inputs,
    steps: pendingSteps(fields),
  });
};

export type StepsOutcome = {
  status: 'complete' | 'failed' | 'cancelled';
  error: RunError | null;
};

/**
 * Runs the steps of `steps` not yet done, in order (a retry keeps the outputs of those done).
 * `save` is called when a step starts and when it ends, with every step's state.
 */
export const runSteps = async (opts: {
  ctx: Omit<StepContext, 'signal' | 'remainingMs'>;
  fields: WorkflowFields;
  inputs: Record<string, unknown>;
  steps: WorkflowStepRun[];
  limits?: Partial<RunLimits> | undefined;
  /** Fires when the user cancels. */
  cancel: AbortSignal;
  save: (steps: WorkflowStepRun[]) => Promise<void>;
}): Promise<StepsOutcome> => {
  const limits = { ...defaultLimits, ...opts.limits };
  const deadline = Date.now() + limits.runTimeoutMs;
  const timeout = AbortSignal.timeout(limits.runTimeoutMs);
  const signal = AbortSignal.any([opts.cancel, timeout]);
  const steps = opts.steps;
  const ctx: StepContext = { ...opts.ctx, signal, remainingMs: () => deadline - Date.now() };
  const now = () => new Date().toISOString();
  const skipFrom = async (index: number, status: 'skipped' | 'cancelled') => {
    for (const s of steps.slice(index)) if (s.status === 'pending') s.status = status;
    await opts.save(steps);
  };

  for (const [index, step] of opts.fields.steps.entries()) {
    const run = steps[index]!;
    if (run.status === 'done') continue;
    if (opts.cancel.aborted) {
      await skipFrom(index, 'cancelled');
      return { status: 'cancelled', error: null };
    }
    if (timeout.aborted) {
      await skipFrom(index, 'cancelled');
      return {
        status: 'failed',
        error: { code: 'workflows:run_timeout', message: timeoutMessage(limits), step_id: step.id },
      };
    }
    Object.assign(run, {
      status: 'running',
      output: null,
      error: null,
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: null,
      duration_ms: null,
      started_at: now(),
      finished_at: null,
    } satisfies Partial<WorkflowStepRun>);
    await opts.save(steps);
    const scope = {
      inputs: opts.inputs,
      steps: Object.fromEntries(
        steps.filter((s) => s.status === 'done').map((s) => [s.step_id, { output: s.output }]),
      ),
    };
    const started = performance.now();
    const finish = () => {
      run.duration_ms = Math.round(performance.now() - started);
      run.finished_at = now();
    };
    try {
      const result = await runStep(ctx, step, scope);
      finish();
      run.status = 'done';
      run.output = boundOutput(result.output);
      run.input_tokens = result.usage?.inputTokens ?? 0;
      run.output_tokens = result.usage?.outputTokens ?? 0;
      run.cost_usd = result.usage?.costUsd ?? null;
      const spent = totalsOf(steps);
      const over =
        spent.input_tokens + spent.output_tokens > limits.tokenBudget
          ? {
              code: 'workflows:token_budget',
              message: `The run used ${(spent.input_tokens + spent.output_tokens).toLocaleString('en')} tokens, more than its budget of ${limits.tokenBudget.toLocaleString('en')}. Shorten its prompts or outputs, then retry it.`,
            }
          : (spent.cost_usd ?? 0) > limits.costBudgetUsd
            ? {
                code: 'workflows:cost_budget',
                message: `The run cost about $${(spent.cost_usd ?? 0).toFixed(2)}, more than its budget of $${limits.costBudgetUsd.toFixed(2)}. Use a cheaper model or shorter prompts, then retry it.`,
              }
            : null;
      if (over) {
        run.status = 'failed';
        run.error = over.message;
        await skipFrom(index + 1, 'cancelled');
        return { status: 'failed', error: { ...over, step_id: step.id } };
      }
      if (result.stop) {
        await skipFrom(index + 1, 'skipped');
        return { status: 'complete', error: null };
      }
      await opts.save(steps);
    } catch (error) {
      finish();
      if (opts.cancel.aborted) {
        run.status = 'cancelled';
        await skipFrom(index + 1, 'cancelled');
        return { status: 'cancelled', error: null };
      }
      const code = timeout.aborted
        ? 'workflows:run_timeout'
        : error instanceof StepFailure
          ? error.code
          : 'workflows:step_failed';
      const message = timeout.aborted
        ? timeoutMessage(limits)
        : error instanceof StepFailure
          ? error.message
          : 'The step failed unexpectedly. Retry the run; if it fails again, change the step.';
      if (!(error instanceof StepFailure) && !timeout.aborted) {
        opts.ctx.deps.log.error(
          { err: error instanceof Error ? error.message : String(error), step: step.id },
          'workflow step failed unexpectedly',
        );
      }
      run.status = 'failed';
      run.error = message;
      await skipFrom(index + 1, 'cancelled');
      return { status: 'failed', error: { code, message, step_id: step.id } };
    }
  }
  return { status: 'complete', error: null };
};

const timeoutMessage = (limits: RunLimits) =>
  `The run took longer than its ${Math.round(limits.runTimeoutMs / 60_000) || 1} minutes. Make its steps shorter, then retry it.`;

/**
 * Runs a stored run to its end and returns it: the `workflow-run` job calls this, and so does a
 * scheduled workflow. The run is this instance's while it runs (`instance_id`); should the
 * instance stop, the sweep fails it (ADR 018). A run already running or ended is returned as it
 * is. Should the run end elsewhere meanwhile (this instance was taken for gone), its steps stop
 * and nothing more is written.
 */
export const executeWorkflowRun = async (
  deps: Deps,
  runId: string,
  userId: string,
  opts: { limits?: Partial<RunLimits> } = {},
): Promise<WorkflowRun> => {
  const repo = new WorkflowRunsRepository(deps.database.db, userId);
  const row = await repo.get(runId);
  if (!row) throw new ApiError(404, 'workflows:run_not_found');
  if (row.status === 'running' && row.instance_id === deps.instance.id && !runningHere.has(runId)) {
    // This instance's, but its job failed on a lost write: it ends as if its instance had stopped.
    const failed = await repo.transition(runId, 'running', interruptedPatch(row));
    return toWorkflowRun(failed ?? row);
  }
  if (row.status !== 'queued') return toWorkflowRun(row);
  const claimed = await repo.transition(runId, 'queued', {
    status: row.cancel_requested ? 'cancelled' : 'running',
    instance_id: deps.instance.id,
    started_at: row.started_at ?? new Date(),
    ...(row.cancel_requested && { finished_at: new Date() }),
  });
  if (!claimed || claimed.status === 'cancelled') {
    return toWorkflowRun(claimed ?? (await repo.get(runId)) ?? row);
  }

  runningHere.add(runId);
  const cancel = new AbortController();
  const poll = setInterval(() => {
    repo
      .cancelRequested(runId)
      .then((asked) => asked && cancel.abort())
      .catch(() => {});
  }, CANCEL_POLL_MS);
  const steps = structuredClone(claimed.steps as WorkflowStepRun[]);
  let outcome: StepsOutcome;
  try {
    outcome = await runSteps({
      ctx: {
        deps,
        userId,
        runKey: runId,
        source: claimed.trigger === 'schedule' ? 'schedule' : 'workflow',
        rateLimit: 'none',
      },
      fields: claimed.definition as WorkflowFields,
      inputs: claimed.inputs,
      steps,
      limits: opts.limits,
      cancel: cancel.signal,
      save: async (current) => {
        const saved = await repo.transition(runId, 'running', {
          steps: current,
          ...totalsOf(current),
        });
        if (!saved) cancel.abort();
      },
    });
  } catch (error) {
    deps.log.error(
      { err: error instanceof Error ? error.message : String(error), runId },
      'workflow run failed unexpectedly',
    );
    outcome = {
      status: 'failed',
      error: {
        code: 'workflows:step_failed',
        message: 'The run failed unexpectedly. Retry it.',
        step_id: null,
      },
    };
  } finally {
    clearInterval(poll);
    runningHere.delete(runId);
  }
  const ended = await repo.transition(runId, 'running', {
    status: outcome.status,
    steps,
    ...totalsOf(steps),
    output: finalOutput(steps),
    error_code: outcome.error?.code ?? null,
    error_message: outcome.error?.message ?? null,
    error_step_id: outcome.error?.step_id ?? null,
    finished_at: new Date(),
  });
  return toWorkflowRun(ended ?? (await repo.get(runId)) ?? claimed);
};

/** A run whose instance stopped: failed, with its running step too, so it can be retried. */
const interruptedPatch = (row: WorkflowRunRow): WorkflowRunPatch => {
  const steps = structuredClone(row.steps as WorkflowStepRun[]);
  const at = steps.find((s) => s.status === 'running');
  for (const s of steps) {
    if (s.status === 'running') Object.assign(s, { status: 'failed', error: interruptedMessage });
    else if (s.status === 'pending') s.status = 'cancelled';
  }
  return {
    status: 'failed',
    steps,
    error_code: 'workflows:interrupted',
    error_message: interruptedMessage,
    error_step_id: at?.step_id ?? null,
    finished_at: new Date(),
  };
};

/** Fails the runs left `running` by instances that are gone (the sweep; ADR 018). */
export const failAbandonedWorkflowRuns = async (deps: Pick<Deps, 'database'>): Promise<string[]> =>
  (await endAbandonedWorkflowRuns(deps.database.db, interruptedPatch)).map((row) => row.id);

/**
 * Puts a failed run (as its caller read it) back in the queue from its failed step: the steps done
 * before keep their outputs; that step and those after it run again. Null when the run is not
 * failed, or stopped being so since it was read.
 */
export const prepareRetry = async (
  deps: Deps,
  row: WorkflowRunRow,
): Promise<WorkflowRunRow | null> => {
  if (row.status !== 'failed') return null;
  const repo = new WorkflowRunsRepository(deps.database.db, row.user_id);
  const steps = (row.steps as WorkflowStepRun[]).map((s) =>
    s.status === 'done'
      ? s
      : {
          ...s,
          status: 'pending' as const,
          output: null,
          error: null,
          input_tokens: 0,
          output_tokens: 0,
          cost_usd: null,
          duration_ms: null,
          started_at: null,
          finished_at: null,
        },
  );
  return repo.transition(row.id, 'failed', {
    status: 'queued',
    steps,
    ...totalsOf(steps),
    output: null,
    error_code: null,
    error_message: null,
    error_step_id: null,
    cancel_requested: false,
    finished_at: null,
  });
};

export type DryRunResult = Pick<
  WorkflowRun,
  'status' | 'steps' | 'output' | 'error' | 'input_tokens' | 'output_tokens' | 'cost_usd'
>;

/** Runs a draft at once with sample inputs; nothing is stored but the usage of its calls. */
export const dryRunWorkflow = async (
  deps: Deps,
  req: {
    userId: string;
    fields: WorkflowFields;
    inputs: Record<string, unknown>;
    signal?: AbortSignal | undefined;
  },
): Promise<DryRunResult> => {
  const inputs = resolveInputs(req.fields.inputs, req.inputs);
  const steps = pendingSteps(req.fields);
  const outcome = await runSteps({
    ctx: {
      deps,
      userId: req.userId,
      runKey: randomUUID(),
      source: 'workflow',
      rateLimit: 'none',
    },
    fields: req.fields,
    inputs,
    steps,
    cancel: req.signal ?? new AbortController().signal,
    save: async () => {},
  });
  return {
    status: outcome.status,
    steps,
    output: finalOutput(steps),
    error: outcome.error,
    ...totalsOf(steps),
  };
};
