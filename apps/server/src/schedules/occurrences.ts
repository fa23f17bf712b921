import { scheduleLimits } from '@chorus/shared/api/schedules';
import { emailMessages } from '@chorus/shared/email';
import { messageFor } from '@chorus/shared/error-catalogue';
import {
  advanceSchedule,
  claimOccurrence,
  dueSchedules,
  finishRun,
  recordOutcome,
  runForJob,
  takeOccurrence,
  type ScheduleRow,
  type ScheduleRunRow,
} from '../db/repositories/schedules.ts';
import { emailIdentity } from '../email/identity.ts';
import {
  runNotificationEmail,
  type RunNotification,
} from '../email/templates/run-notification.tsx';
import type { Deps } from '../http/app-env.ts';
import { latestOccurrence, nextOccurrence, parseCron } from './cron.ts';
import { runTarget, type TargetOutcome } from './targets.ts';

export const SCHEDULE_RUN_QUEUE = 'schedule-run';

/** One claimed occurrence, run by the `schedule-run` job. */
export type ScheduleRunJob = { run_id: string; user_id: string };

/** Hands a claimed occurrence to whatever runs it: the queue, or a test at once. */
export type Dispatch = (job: ScheduleRunJob) => Promise<void>;

/**
 * An occurrence the tick finds this long after its time was missed (the server was down, or the
 * schedule was resumed from a pause) and follows the schedule's missed-run policy; younger ones
 * run as usual. The tick runs every minute, so a few minutes allow for a late tick.
 */
const ON_TIME_MS = 5 * 60_000;

/** Schedules one tick takes on; the rest are due still and wait for the next minute. */
const TICK_BATCH = 200;

export const queueDispatch =
  (deps: Deps): Dispatch =>
  async (job) => {
    await deps.jobs.send(SCHEDULE_RUN_QUEUE, job, { singletonKey: job.run_id });
  };

const dispatchClaimed = async (deps: Deps, run: ScheduleRunRow, dispatch: Dispatch) => {
  try {
    await dispatch({ run_id: run.id, user_id: run.user_id });
  } catch (error) {
    deps.log.error({ err: error, runId: run.id }, 'a scheduled run could not be queued');
    await finishRun(deps.database.db, run.id, {
      status: 'failed',
      output_text: '',
      input_tokens: 0,
      output_tokens: 0,
      cost_usd: null,
      error_code: 'jobs:unavailable',
      error_message: messageFor('jobs:unavailable'),
      workflow_run_id: null,
    });
  }
};

/**
 * What is due of one schedule at `now`: the occurrence on time (if any), and the newest of those
 * missed, all between its stored `next_run_at` and now.
 */
const dueOf = (schedule: ScheduleRow, now: Date) => {
  const cron = parseCron(schedule.cron, schedule.time_zone);
  const seen = schedule.next_run_at!;
  const latest = latestOccurrence(cron, now);
  const last = latest && latest >= seen ? latest : seen;
  const onTime = now.getTime() - last.getTime() <= ON_TIME_MS ? last : null;
  let missed: Date | null = null;
  if (!onTime) missed = last;
  else if (last > seen) {
    const before = latestOccurrence(cron, new Date(last.getTime() - 1));
    missed = before && before >= seen ? before : seen;
  }
  return { onTime, missed, next: nextOccurrence(cron, now) };
};

/**
 * One tick (every minute, on whichever instance pg-boss hands it to; tests call it with a fixed
 * `now`). For each enabled schedule whose next occurrence is due, the occurrence is claimed by
 * inserting it into `schedule_runs`: of several instances ticking at once only one insert lands,
 * and only that instance runs it. Occurrences missed during downtime are skipped (one `skipped`
 * row says so) or run once together (`missed`), as the schedule says. Then the schedule moves on
 * to its first occurrence after now. Answers the occurrences this call claimed.
 */
export const tickSchedules = async (
  deps: Deps,
  now: Date = new Date(),
  dispatch: Dispatch = queueDispatch(deps),
): Promise<ScheduleRunRow[]> => {
  const db = deps.database.db;
  const claimed: ScheduleRunRow[] = [];
  for (const schedule of await dueSchedules(db, now, TICK_BATCH)) {
    const seen = schedule.next_run_at!;
    let due: ReturnType<typeof dueOf>;
    try {
      due = dueOf(schedule, now);
    } catch (error) {
      // Saved expressions were checked; one this croner refuses stops rather than loops.
      deps.log.error({ err: error, scheduleId: schedule.id }, 'a schedule cannot be computed');
      await advanceSchedule(db, schedule.id, seen, null);
      continue;
    }
    const base = {
      scheduleId: schedule.id,
      userId: schedule.user_id,
      whileDueAt: seen,
      instanceId: deps.instance.id,
    };
    const runs: ScheduleRunRow[] = [];
    if (due.missed) {
      const run = await claimOccurrence(db, {
        ...base,
        occurrenceAt: due.missed,
        trigger: 'missed',
        status: schedule.missed === 'run_once' ? 'running' : 'skipped',
      });
      if (run?.status === 'running') runs.push(run);
    }
    if (due.onTime) {
      const run = await claimOccurrence(db, { ...base, occurrenceAt: due.onTime, trigger: 'cron' });
      if (run) runs.push(run);
    }
    for (const run of runs) await dispatchClaimed(deps, run, dispatch);
    claimed.push(...runs);
    await advanceSchedule(db, schedule.id, seen, due.next);
  }
  return claimed;
};

/** "Run now": a manual occurrence at this moment, queued like any other. */
export const runNow = async (
  deps: Deps,
  schedule: ScheduleRow,
  dispatch: Dispatch = queueDispatch(deps),
): Promise<ScheduleRunRow> => {
  const base = {
    scheduleId: schedule.id,
    userId: schedule.user_id,
    trigger: 'manual' as const,
    instanceId: deps.instance.id,
  };
  const at = new Date();
  // Two presses within the same millisecond are two runs: the second takes the next one.
  const run =
    (await claimOccurrence(deps.database.db, { ...base, occurrenceAt: at })) ??
    (await claimOccurrence(deps.database.db, {
      ...base,
      occurrenceAt: new Date(at.getTime() + 1),
    }));
  if (!run) throw new Error('The occurrence could not be claimed.');
  await dispatchClaimed(deps, run, dispatch);
  return run;
};

const mailer = async (deps: Deps, notification: RunNotification) => {
  try {
    const mail = await runNotificationEmail({ identity: emailIdentity(deps.config), notification });
    await deps.mailer.send(mail);
  } catch (error) {
    deps.log.warn(
      { err: error instanceof Error ? error.message : String(error), kind: notification.kind },
      'a schedule mail could not be sent',
    );
  }
};

const outcomeRow = (o: TargetOutcome) => ({
  status: o.status,
  output_text: o.text,
  input_tokens: o.inputTokens,
  output_tokens: o.outputTokens,
  cost_usd: o.costUsd,
  error_code: o.error?.code ?? null,
  error_message: o.error?.message ?? null,
  workflow_run_id: o.workflowRunId,
});

/**
 * Runs one claimed occurrence (the `schedule-run` job): its target on the owner's keys and quota,
 * the result stored, the mails the schedule asks for, and the failure count that turns a schedule
 * off after `failuresBeforeDisable` failures in a row. An occurrence that has ended already is
 * left alone, so a second delivery of the job does nothing.
 */
export const runOccurrence = async (
  deps: Deps,
  job: ScheduleRunJob,
  opts: { failuresBeforeDisable?: number } = {},
): Promise<void> => {
  const db = deps.database.db;
  const found = await runForJob(db, job.run_id, job.user_id);
  if (!found || found.run.status !== 'running') return;
  // This instance owns it from here: if it stops, the sweep fails the occurrence (ADR 018).
  if (!(await takeOccurrence(db, found.run.id, deps.instance.id))) return;
  const { run, schedule, email } = found;
  const runName = schedule.name;
  if (schedule.email_started) await mailer(deps, { kind: 'run_started', to: email, runName });

  let outcome: TargetOutcome;
  try {
    outcome = await runTarget(deps, {
      userId: job.user_id,
      runId: run.id,
      target: schedule.target,
    });
  } catch (error) {
    deps.log.error({ err: error, runId: run.id }, 'a scheduled run failed unexpectedly');
    outcome = {
      status: 'failed',
      text: '',
      inputTokens: 0,
      outputTokens: 0,
      costUsd: null,
      error: { code: 'request:failed', message: messageFor('request:failed') },
      workflowRunId: null,
    };
  }
  if (!(await finishRun(db, run.id, outcomeRow(outcome)))) return;

  const reason = outcome.error?.message ?? messageFor('request:failed');
  if (outcome.status === 'complete') {
    if (schedule.email_completed) {
      await mailer(deps, {
        kind: 'run_completed',
        to: email,
        runName,
        // The spec's words stand in for an empty answer, so the mail still goes.
        responseText: outcome.text.trim() ? outcome.text : emailMessages.noResponseText,
      });
    }
  } else if (schedule.email_failed) {
    await mailer(deps, {
      kind: outcome.status === 'stopped' ? 'run_needs_approval' : 'run_failed',
      to: email,
      runName,
      reason,
    });
  }

  // A run stopped for an approval is neither a success nor a failure of the schedule.
  if (outcome.status === 'stopped') return;
  const disableAfter = opts.failuresBeforeDisable ?? scheduleLimits.failuresBeforeDisable;
  const recorded = await recordOutcome(db, schedule.id, {
    failed: outcome.status === 'failed',
    disableAfter,
    reason: `It failed ${disableAfter} times in a row. The last failure: ${reason}`,
  });
  if (recorded.disabledNow) {
    await mailer(deps, {
      kind: 'schedule_disabled',
      to: email,
      runName,
      reason: `It failed ${disableAfter} times in a row. The last failure: ${reason} Fix the cause, then resume the schedule.`,
    });
  }
};
