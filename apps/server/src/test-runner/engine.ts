import { stepCountIs, type ToolSet } from 'ai';
import { testRunLimits, type TestTarget } from '@chorus/shared/api/test-runs';
import { emailMessages } from '@chorus/shared/email';
import { buildAgentToolset, type AgentToolset } from '../agents/toolset.ts';
import { needsApprovalReason, unattendedTools } from '../agents/unattended.ts';
import { prepareModelCall, type CallUsage, type ModelCall } from '../ai/model-call.ts';
import {
  activeStatuses,
  resultKey,
  TestRunsRepository,
  type ExtraUsage,
  type NewTestResult,
  type TestRunRow,
} from '../db/repositories/test-runs.ts';
import { emailIdentity } from '../email/identity.ts';
import { runNotificationEmail } from '../email/templates/run-notification.tsx';
import { unsubscribedReason } from '../email/transport.ts';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import { readOutboundAllowList } from '../net/allow-list-setting.ts';
import { checkAssertions, type Observation } from './assertions.ts';
import { createJudge } from './judge.ts';
import { countChanges, type MatrixResult } from './matrix.ts';
import { messageOf, planOf, targetLabel, type PlanCase, type RunPlan } from './plan.ts';
import { passRate } from './brief.ts';
import { cellsAgainst, cellsOf, targetsOf } from './report.ts';
import { createProviderScheduler } from './scheduler.ts';
import type { StoredSummary } from './status.ts';

/**
 * How often a running run beats (`updated_at`) and looks whether it was cancelled. Whether its
 * worker is alive is its instance's lease (ADR 018), not this beat.
 */
const HEARTBEAT_MS = 2_000;
/** Results are written this many at once, or after this long, whichever comes first. */
const BATCH_SIZE = 25;
const BATCH_WAIT_MS = 500;
/** One call's whole time, tools included. */
const CALL_TIMEOUT_MS = 120_000;

/**
 * Failures that would fail every cell after them the same way: the run stops with the message
 * rather than storing thousands of identical errors.
 */
const stopsTheRun = new Set([
  'keys:missing',
  'quota:exceeded',
  'quota:provider_not_allowed',
  'quota:model_not_allowed',
]);

/** This instance's running runs: a cancel here aborts their calls at once. */
const runningHere = new Map<string, () => void>();

/** Stops a run going on this instance now; others notice the flag within a heartbeat. */
export const abortLocalTestRun = (runId: string) => runningHere.get(runId)?.();

/** Why a run stopped before its last cell; `lost`: it is no longer this instance's to end. */
type Ending = { status: 'cancelled' } | { status: 'failed'; error: string } | { status: 'lost' };

type Cell = { c: PlanCase; target: number; repeat: number; message: string };

/** Batches results (and the judge's usage) into few writes. */
const resultWriter = (repo: TestRunsRepository, runId: string) => {
  let rows: NewTestResult[] = [];
  let extra: ExtraUsage = { input_tokens: 0, output_tokens: 0, cost_usd: null };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown = null;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = rows;
    const usage = extra;
    rows = [];
    extra = { input_tokens: 0, output_tokens: 0, cost_usd: null };
    if (batch.length === 0 && usage.input_tokens === 0 && usage.output_tokens === 0) return chain;
    chain = chain
      .then(() => repo.insertResults(runId, batch, usage))
      .then(
        () => undefined,
        (error: unknown) => {
          failure ??= error;
        },
      );
    return chain;
  };
  const later = () => {
    timer ??= setTimeout(() => void flush(), BATCH_WAIT_MS);
  };
  return {
    push(row: NewTestResult) {
      rows.push(row);
      if (rows.length >= BATCH_SIZE) void flush();
      else later();
    },
    addUsage(usage: Pick<CallUsage, 'inputTokens' | 'outputTokens' | 'costUsd'>) {
      extra.input_tokens += usage.inputTokens;
      extra.output_tokens += usage.outputTokens;
      if (usage.costUsd !== null) extra.cost_usd = (extra.cost_usd ?? 0) + usage.costUsd;
      later();
    },
    /** Writes what is left; throws when a write failed (the run is resumed later). */
    async close() {
      await flush();
      if (failure) throw failure;
    },
  };
};

const errorText = (error: unknown) =>
  error instanceof ApiError ? error.message : 'The call failed unexpectedly. Run the case again.';

/**
 * Runs a stored run to its end (the `test-run` job): every cell case × target × repeat not
 * stored yet, through one scheduler (a few calls at once per provider, backing off on 429s), on
 * the owner's keys and quota. A run ended already, or alive on another instance, is left alone;
 * one whose instance is gone is taken over and goes on (the sweep queues it; ADR 018).
 */
export const executeTestRun = async (deps: Deps, runId: string, userId: string): Promise<void> => {
  const repo = new TestRunsRepository(deps.database.db, userId);
  // Held before the claim, so a second job for the run on this instance leaves it alone.
  if (runningHere.has(runId)) return;
  runningHere.set(runId, () => undefined);
  let claimed;
  try {
    claimed = await repo.claim(runId, deps.instance.id);
  } finally {
    if (!claimed) runningHere.delete(runId);
  }
  if (!claimed) return;
  const { run } = claimed;
  if (claimed.resumed) {
    deps.log.warn({ runId, kind: 'test-run' }, 'a run of a stopped instance is resumed here');
  }
  if (run.cancel_requested) {
    runningHere.delete(runId);
    await finishTestRun(deps, repo, run, 'cancelled', null);
    return;
  }
  const plan = planOf(run);
  const targets = targetsOf(run);
  const stored = await repo.storedKeys(runId);
  const cells: Cell[] = [];
  for (const c of plan.cases) {
    const message = messageOf(plan, c);
    for (let target = 0; target < targets.length; target++) {
      for (let repeat = 1; repeat <= run.repeats; repeat++) {
        if (!stored.has(resultKey({ case_id: c.id, target, repeat }))) {
          cells.push({ c, target, repeat, message });
        }
      }
    }
  }

  const stop = new AbortController();
  const state: { ending: Ending | null } = { ending: null };
  const stopWith = (why: Ending) => {
    state.ending ??= why;
    stop.abort();
  };
  runningHere.set(runId, () => stopWith({ status: 'cancelled' }));
  const heartbeat = setInterval(() => {
    repo.heartbeat(runId, deps.instance.id).then(
      (beat) => {
        if (beat === 'cancel') stopWith({ status: 'cancelled' });
        else if (beat === 'lost') stopWith({ status: 'lost' });
      },
      (error: unknown) => deps.log.warn({ err: error, runId }, 'test run heartbeat failed'),
    );
  }, HEARTBEAT_MS);

  const writer = resultWriter(repo, runId);
  const scheduler = createProviderScheduler({
    concurrency: testRunLimits.concurrencyPerProvider,
    signal: stop.signal,
  });
  const judge = createJudge(deps, {
    userId,
    signal: stop.signal,
    schedule: (provider, task) => scheduler.run(provider, task),
    onUsage: (usage) => writer.addUsage(usage),
  });
  const tools = agentTools(deps, userId, runId, plan, stop.signal);

  const runCell = async (cell: Cell) => {
    const target = targets[cell.target]!;
    const base = {
      case_id: cell.c.id,
      target: cell.target,
      repeat: cell.repeat,
      input: cell.message,
    };
    try {
      const answer = await callTarget(deps, { userId, plan, target, cell, tools }, scheduler);
      const output = answer.text.slice(0, testRunLimits.outputChars);
      const observation: Observation = {
        input: cell.message,
        output,
        expectedOutput: cell.c.expected_output,
        latencyMs: Math.round(answer.usage.latencyMs),
        costUsd: answer.usage.costUsd,
      };
      const verdicts = await checkAssertions(cell.c.assertions, observation, judge);
      writer.push({
        ...base,
        output,
        error: null,
        passed: verdicts.every((v) => v.passed),
        assertions: verdicts,
        latency_ms: observation.latencyMs,
        input_tokens: answer.usage.inputTokens,
        output_tokens: answer.usage.outputTokens,
        cost_usd: answer.usage.costUsd,
      });
    } catch (error) {
      // Cancelled or stopped: the cell is not stored, and a resumed run would run it.
      if (stop.signal.aborted) return;
      if (error instanceof ApiError && stopsTheRun.has(error.code)) {
        stopWith({ status: 'failed', error: error.message });
        return;
      }
      if (!(error instanceof ApiError)) {
        deps.log.error({ err: error, runId }, 'a test run call failed unexpectedly');
      }
      writer.push({
        ...base,
        output: '',
        error: errorText(error),
        passed: false,
        assertions: [],
        latency_ms: null,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: null,
      });
    }
  };

  let crashed: unknown = null;
  try {
    await Promise.all(cells.map(runCell));
  } finally {
    clearInterval(heartbeat);
    runningHere.delete(runId);
    await tools.close();
    try {
      await writer.close();
    } catch (error) {
      crashed = error;
    }
  }
  // A write failed (the database went away): the run stays `running`, to be resumed.
  if (crashed) throw crashed;
  const end = state.ending;
  if (end?.status === 'lost') {
    deps.log.warn({ runId }, 'a test run was taken over elsewhere; this instance stopped it');
    return;
  }
  await finishTestRun(
    deps,
    repo,
    run,
    end?.status ?? 'done',
    end?.status === 'failed' ? end.error : null,
  );
};

/** An agent's tools, built once per run when its first call needs them, and closed at the end. */
const agentTools = (
  deps: Deps,
  userId: string,
  runId: string,
  plan: RunPlan,
  signal: AbortSignal,
) => {
  const agent = plan.subject.agent;
  let built: Promise<AgentToolset> | null = null;
  return {
    get: (target: TestTarget): Promise<AgentToolset> | null => {
      if (!agent || agent.tools.length === 0) return null;
      built ??= readOutboundAllowList(deps).then((allow) =>
        buildAgentToolset(deps, agent.tools, {
          userId,
          conversationId: runId,
          provider: target.provider,
          model: target.model,
          knowledgeBaseIds: agent.knowledge_base_ids,
          allow,
          signal,
          granted: new Set(),
        }),
      );
      return built;
    },
    maxSteps: Math.max(1, agent?.max_steps ?? 1),
    async close() {
      if (!built) return;
      await built.then(
        (toolset) => toolset.close(),
        () => undefined,
      );
    },
  };
};

class ApprovalWanted extends ApiError {
  constructor(tool: string) {
    super(502, 'provider:failed', `${tool} ${needsApprovalReason}`);
  }
}

/**
 * One call of a cell through the seam, on the owner's keys and quota: prepared (and its prompt
 * counted) once, however many times the scheduler tries it again after a 429.
 */
const callTarget = async (
  deps: Deps,
  req: {
    userId: string;
    plan: RunPlan;
    target: TestTarget;
    cell: Cell;
    tools: ReturnType<typeof agentTools>;
  },
  scheduler: ReturnType<typeof createProviderScheduler>,
) => {
  const { subject } = req.plan;
  let call: ModelCall | undefined;
  return scheduler.run(req.target.provider, async (signal) => {
    call ??= await prepareModelCall(deps, {
      userId: req.userId,
      source: 'test',
      provider: req.target.provider,
      model: req.target.model,
      rateLimit: 'none',
    });
    const toolset = await req.tools.get(req.target);
    const callStop = new AbortController();
    let approval: string | null = null;
    const tools: ToolSet | undefined = toolset
      ? unattendedTools(toolset.tools, (name) => {
          approval ??= name;
          callStop.abort();
        })
      : undefined;
    try {
      return await call.generate({
        messages: [{ role: 'user', content: req.cell.message }],
        system: subject.system.trim() || undefined,
        temperature: subject.temperature ?? undefined,
        topP: subject.topP ?? undefined,
        maxOutputTokens: subject.maxOutputTokens ?? undefined,
        ...(tools && { tools, stopWhen: stepCountIs(req.tools.maxSteps) }),
        signal: AbortSignal.any([signal, callStop.signal]),
        timeoutMs: CALL_TIMEOUT_MS,
        maxRetries: 0,
      });
    } catch (error) {
      if (approval) throw new ApprovalWanted(approval);
      throw error;
    }
  });
};

// ---------------------------------------------------------------------------------------------
// The end of a run

/**
 * Ends a run: its summary (totals, and regressions and improvements against the set's previous
 * finished run), its status, and — when the set asks for it and the run did not end by a cancel —
 * the 'test run' e-mail, whose outcome is kept with the summary. A run that ended already is
 * left as it is.
 */
export const finishTestRun = async (
  deps: Deps,
  repo: TestRunsRepository,
  run: TestRunRow,
  status: 'done' | 'failed' | 'cancelled',
  error: string | null,
): Promise<TestRunRow | null> => {
  const [results, baseline, now] = await Promise.all([
    repo.resultsForMatrix(run.id),
    repo.previousDone(run),
    repo.get(run.id),
  ]);
  const current = now ?? run;
  if (!(activeStatuses as readonly string[]).includes(current.status)) return null;
  const changes = baseline
    ? countChanges(await cellsAgainst(repo, run, await cellsOf(repo, run, results), baseline))
    : { regressions: 0, improvements: 0 };
  const passed = results.filter((r) => r.passed).length;
  const errors = results.filter((r) => r.error !== null).length;
  const summary: StoredSummary = {
    total: results.length,
    passed,
    failed: results.length - passed - errors,
    errors,
    pass_rate: passRate(passed, results.length),
    all_passed: status === 'done' && results.length === run.total && passed === results.length,
    baseline_run_id: baseline?.id ?? null,
    ...changes,
    input_tokens: current.input_tokens,
    output_tokens: current.output_tokens,
    cost_usd: current.cost_usd,
    notification: null,
  };
  // Sent before the run reads as ended, so whoever sees it ended sees how its mail went too.
  if (status !== 'cancelled') {
    summary.notification = await notify(deps, repo, { run, status, error }, summary, results);
  }
  return repo.finish(run.id, {
    status,
    error,
    summary,
    baseline_run_id: baseline?.id ?? null,
  });
};

/** Sends the 'test run' e-mail when the set asks for one; what happened, in spec §8's words. */
const notify = async (
  deps: Deps,
  repo: TestRunsRepository,
  { run, status, error }: { run: TestRunRow; status: 'done' | 'failed'; error: string | null },
  summary: StoredSummary,
  results: MatrixResult[],
): Promise<StoredSummary['notification']> => {
  const to = await repo.notificationAddress(run.test_set_id);
  if (to === null) return null;
  const targets = targetsOf(run);
  try {
    const mail = await runNotificationEmail({
      identity: emailIdentity(deps.config),
      notification: {
        kind: 'test_run',
        to,
        runName: run.name,
        testRun: {
          runId: run.id,
          status,
          error,
          total: summary.total,
          passed: summary.passed,
          failed: summary.failed,
          errors: summary.errors,
          passRate: summary.pass_rate,
          compared: summary.baseline_run_id !== null,
          regressions: summary.regressions,
          improvements: summary.improvements,
          costUsd: summary.cost_usd,
          targets: targets.map((t, i) => {
            const own = results.filter((r) => r.target === i);
            return {
              label: targetLabel(t),
              passRate: passRate(own.filter((r) => r.passed).length, own.length),
            };
          }),
        },
      },
    });
    const sent = await deps.mailer.send(mail);
    if (sent.status === 'failed') {
      const reason =
        sent.skipped.length > 0 ? unsubscribedReason(sent.skipped) : 'the mail server refused it';
      return { sent: false, message: emailMessages.testRunNotificationFailed(reason) };
    }
    return { sent: true, message: emailMessages.testRunNotificationSent };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.log.warn({ err: reason, runId: run.id }, 'the test run e-mail could not be sent');
    return { sent: false, message: emailMessages.testRunNotificationFailed(reason) };
  }
};

/**
 * Cancels a run: a queued one ends at once (with its summary); a running one is flagged, and
 * stops now when it runs on this instance, else within a heartbeat where it runs. Null when the
 * run is not the user's; 'finished' when it has ended already.
 */
export const cancelTestRun = async (
  deps: Deps,
  userId: string,
  runId: string,
): Promise<TestRunRow | 'finished' | null> => {
  const repo = new TestRunsRepository(deps.database.db, userId);
  const asked = await repo.requestCancel(runId);
  if (!asked) return (await repo.get(runId)) ? 'finished' : null;
  if (asked.status === 'queued') {
    return (await finishTestRun(deps, repo, asked, 'cancelled', null)) ?? (await repo.get(runId));
  }
  abortLocalTestRun(runId);
  return asked;
};
