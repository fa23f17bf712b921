import { failAbandonedAgentRuns } from '../db/repositories/agent-runs.ts';
import { pruneGoneInstances } from '../db/repositories/instances.ts';
import { abandonedDocuments } from '../db/repositories/knowledge.ts';
import { interruptAbandonedReplies } from '../db/repositories/messages.ts';
import { failAbandonedOccurrences } from '../db/repositories/schedules.ts';
import { abandonedTestRuns } from '../db/repositories/test-runs.ts';
import type { Deps } from '../http/app-env.ts';
import { INGEST_QUEUE } from '../knowledge/ingest.ts';
import { failAbandonedWidgetReplies } from '../widget/store.ts';
import { failAbandonedWorkflowRuns } from '../workflows/engine.ts';
import { defineJob } from './queue.ts';
import { enqueueTestRun } from './test-run.ts';

/** Each kind of run, as the sweep's log lines name it. */
export type RunKind =
  | 'chat-reply'
  | 'agent-run'
  | 'widget-reply'
  | 'workflow-run'
  | 'schedule-occurrence'
  | 'test-run'
  | 'knowledge-document';

export type Recovered = {
  /** Runs ended here (interrupted or failed, with what was saved). */
  ended: Partial<Record<RunKind, string[]>>;
  /** Runs queued again; the worker that claims one resumes it (and says so in the log). */
  queued: Partial<Record<RunKind, string[]>>;
};

/**
 * Ends or resumes every run whose instance is gone (ADR 018): its lease lapsed, or its row is
 * gone (a clean stop). Replies, agent runs, widget replies, workflow runs and scheduled
 * occurrences end — interrupted or failed with a plain reason, keeping what was saved — each kind
 * in one statement or transaction that only moves rows still running, so of two sweeps at once
 * only one ends a run. Test runs and knowledge documents go on where they stopped: each is queued
 * again, and the worker's claim (one statement) takes it, so one worker resumes it.
 */
export const recoverStoppedInstances = async (deps: Deps): Promise<Recovered> => {
  const db = deps.database.db;
  const ended: Recovered['ended'] = {
    'chat-reply': await interruptAbandonedReplies(db),
    'agent-run': await failAbandonedAgentRuns(db),
    'widget-reply': await failAbandonedWidgetReplies(db),
    'workflow-run': await failAbandonedWorkflowRuns(deps),
    'schedule-occurrence': await failAbandonedOccurrences(db),
  };
  const queued: Recovered['queued'] = { 'test-run': [], 'knowledge-document': [] };
  for (const run of await abandonedTestRuns(db)) {
    await enqueueTestRun(deps, run);
    queued['test-run']!.push(run.id);
  }
  for (const doc of await abandonedDocuments(db, 200)) {
    await deps.jobs.send(
      INGEST_QUEUE,
      { document_id: doc.id, user_id: doc.user_id },
      { singletonKey: doc.id },
    );
    queued['knowledge-document']!.push(doc.id);
  }
  for (const [kind, ids] of Object.entries(ended)) {
    if (ids.length > 0) deps.log.warn({ kind, ids }, 'runs of a stopped instance are ended');
  }
  for (const [kind, ids] of Object.entries(queued)) {
    if (ids.length > 0) deps.log.info({ kind, ids }, 'runs of a stopped instance are queued again');
  }
  await pruneGoneInstances(db);
  return { ended, queued };
};

/** Whole seconds between sweeps: one heartbeat, at least a second. */
export const sweepSeconds = (heartbeatMs: number) => Math.max(1, Math.ceil(heartbeatMs / 1000));

export const RECOVER_QUEUE = 'recover-stopped-instances';

/**
 * Every heartbeat (10 s by default), on one instance at a time: the runs of instances whose lease
 * lapsed are ended or resumed, without waiting for anything to restart; instances gone for a day
 * are forgotten. pg-boss's cron makes at most a job a minute, too slow for this: instead every
 * instance asks for a sweep each heartbeat, the asks of one heartbeat make one job (throttled),
 * and the queue runs one at a time (`singleton`). Not on the embedded database: one process owns
 * it, so there is no other instance to outlive, and start-up recovers what the last one left
 * (main.ts).
 */
export const recoverStoppedInstancesJob = defineJob<Deps, object>({
  name: RECOVER_QUEUE,
  title: 'End or resume the runs of stopped instances',
  singleton: true,
  expireInSeconds: 60,
  // Thousands a day: an hour of them is enough to see it works.
  keepCompletedSeconds: 60 * 60,
  run: async (_data, deps) => {
    await recoverStoppedInstances(deps);
  },
  attach: (queue, deps) => {
    if (deps.database.driver === 'pglite') return;
    const seconds = sweepSeconds(deps.config.instanceHeartbeatMs);
    const timer = setInterval(() => {
      if (!queue.running) {
        clearInterval(timer);
        return;
      }
      // A send lost to a database outage is asked again at the next heartbeat.
      queue.send(RECOVER_QUEUE, {}, { throttleSeconds: seconds }).catch((err: unknown) => {
        deps.log.debug({ err }, 'a sweep of stopped instances could not be asked for');
      });
    }, seconds * 1000);
    timer.unref();
  },
});
