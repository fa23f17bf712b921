import { RotateCcw, Square } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { WorkflowRun } from '@chorus/shared/api/workflows';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import {
  formatCostUsd,
  formatDuration,
  formatTokens,
  outputText,
} from '@/lib/workflows/run-format';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { useCancelWorkflowRun, useRetryWorkflowRun, useWorkflowRun } from '../api/workflows';
import { StepRunList } from './step-run-list';

const isGoing = (run: WorkflowRun) => run.status === 'queued' || run.status === 'running';

/** The clock the elapsed times tick by while a run is going. */
const useNow = (ticking: boolean) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
};

const runDuration = (run: WorkflowRun, now: number) => {
  if (!run.started_at) return null;
  const end = run.finished_at ? Date.parse(run.finished_at) : now;
  return end - Date.parse(run.started_at);
};

const RunBody = ({
  runId,
  onOpenRun,
  onClose,
}: {
  runId: string;
  onOpenRun: (runId: string) => void;
  onClose: () => void;
}) => {
  const query = useWorkflowRun(runId);
  const cancel = useCancelWorkflowRun();
  const retry = useRetryWorkflowRun();
  const run = query.data;
  const going = run !== undefined && isGoing(run);
  const now = useNow(going);

  if (query.isPending) return <Spinner label="Loading the run" />;
  if (query.isError || !run) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The run could not be loaded: {errorMessage(query.error)} Close this and open it again from
        the workflow’s history.
      </p>
    );
  }
  const done = run.steps.filter((step) => step.status === 'done' || step.status === 'skipped');
  const failedStep = run.steps.find((step) => step.status === 'failed');
  const output = outputText(run.output);

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <RunStatusBadge status={run.status} />
          <span>
            {run.workflow_name} · version {run.version} ·{' '}
            {run.trigger === 'schedule' ? 'started by a schedule' : 'started by you'}
          </span>
        </p>
        <p className="text-xs text-muted-foreground">
          Started {formatDateTime(run.started_at ?? run.created_at)} ·{' '}
          {formatDuration(runDuration(run, now))} ·{' '}
          {formatTokens(run.input_tokens, run.output_tokens)} · {formatCostUsd(run.cost_usd)}
        </p>
        <p role="status" aria-live="polite" className="text-sm text-muted-foreground">
          {run.status === 'queued'
            ? 'Waiting for a worker to pick it up…'
            : run.status === 'running'
              ? `Running: ${done.length} of ${run.steps.length} steps finished`
              : run.status === 'complete'
                ? `Finished: ${done.length} of ${run.steps.length} steps ran or were skipped`
                : run.status === 'cancelled'
                  ? 'Cancelled: the steps after the current one did not run.'
                  : 'Stopped at a failed step.'}
        </p>
      </div>
      {run.error ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 p-3 text-sm text-destructive"
        >
          {failedStep ? `Step “${failedStep.name || failedStep.step_id}” failed: ` : ''}
          {run.error.message}
          {run.status === 'failed'
            ? ' Fix the cause (a key, a tool, a reference) and retry from the failed step: the steps before it keep their outputs.'
            : ''}
        </p>
      ) : null}
      <StepRunList steps={run.steps} now={now} />
      {output && !going ? (
        <section className="grid gap-1">
          <h3 className="text-sm font-semibold">Result</h3>
          <pre className="max-h-64 overflow-auto rounded-md bg-muted/50 p-2 text-xs break-words whitespace-pre-wrap">
            {output}
          </pre>
        </section>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {going ? (
          <Button
            variant="destructive"
            disabled={cancel.isPending}
            onClick={() =>
              cancel.mutate(run.id, {
                onSuccess: () => void query.refetch(),
                onError: (error) =>
                  toast.error('Could not cancel the run', { description: errorMessage(error) }),
              })
            }
          >
            <Square aria-hidden="true" /> Cancel run
          </Button>
        ) : null}
        {run.status === 'failed' ? (
          <Button
            disabled={retry.isPending}
            onClick={() =>
              retry.mutate(run.id, {
                onSuccess: (next) => {
                  if (next.id === run.id) void query.refetch();
                  else onOpenRun(next.id);
                },
                onError: (error) =>
                  toast.error('Could not retry the run', { description: errorMessage(error) }),
              })
            }
          >
            <RotateCcw aria-hidden="true" /> Retry from failed step
          </Button>
        ) : null}
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
};

/** A run's live progress, step by step, read again every second until it ends. */
export const RunViewDialog = ({
  runId,
  onOpenRun,
  onClose,
}: {
  runId: string | null;
  onOpenRun: (runId: string) => void;
  onClose: () => void;
}) => (
  <Dialog open={runId !== null} title="Workflow run" onClose={onClose} className="max-w-3xl">
    {runId ? <RunBody key={runId} runId={runId} onOpenRun={onOpenRun} onClose={onClose} /> : null}
  </Dialog>
);
