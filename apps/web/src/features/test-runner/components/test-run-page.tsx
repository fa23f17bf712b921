import { ArrowLeft, Download, SearchX, Square, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { TestRunBrief } from '@chorus/shared/api/test-runs';
import { useQueryClient } from '@tanstack/react-query';
import { plural } from '@/components/forms/card-list';
import { Field } from '@/components/forms/field';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { usePageMeta } from '@/lib/use-page-meta';
import { formatCostUsd, formatTokens } from '@/lib/workflows/run-format';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import {
  exportTestRun,
  isGoing,
  testRunPagePath,
  useCancelTestRun,
  useDeleteTestRun,
  useTestRunMatrix,
  useTestRunStatus,
  useTestRuns,
  type RunStatus,
} from '../api/test-runs';
import { testRunnerQueryKey, testSetPagePath } from '../api/test-sets';
import { CellDialog } from './cell-dialog';
import { RunMatrix, type OpenCell } from './run-matrix';
import { formatPassRate, linkClass, runOf, runTitle } from './run-format';
import { RunProgress } from './runs-table';

/** `?compare=none` compares with nothing; no parameter: the run's baseline. */
const noCompare = 'none';

const NotFound = () => (
  <div>
    <PageHeader title="Test run not found" />
    <EmptyState
      icon={SearchX}
      title="Nothing here"
      action={<LinkButton to="/test-runner">Go to the test runner</LinkButton>}
    >
      This run does not exist in your workspace: it was deleted, or it belongs to someone else. Open
      the test runner to see your runs.
    </EmptyState>
  </div>
);

const progressText = (run: RunStatus): string => {
  const calls = `${run.done.toLocaleString()} of ${run.total.toLocaleString()} calls`;
  switch (run.status) {
    case 'queued':
      return 'Waiting for a worker to pick it up…';
    case 'running':
      return `Running: ${calls} done`;
    case 'done':
      return `Finished: ${calls}`;
    case 'cancelled':
      return `Cancelled after ${calls}`;
    case 'failed':
      return `Stopped after ${calls}`;
  }
};

/** What a pipeline reads: did all pass, and what got worse since the baseline. */
const Summary = ({ run }: { run: RunStatus }) => {
  const summary = run.summary;
  if (!summary) return null;
  const verdict = summary.all_passed
    ? `All ${summary.total.toLocaleString()} answers passed.`
    : `${summary.passed.toLocaleString()} of ${summary.total.toLocaleString()} answers passed (${formatPassRate(summary.pass_rate)}): ${summary.failed.toLocaleString()} failed${summary.errors > 0 ? `, ${plural(summary.errors, 'call', 'calls')} errored` : ''}.`;
  const bad = !summary.all_passed || summary.regressions > 0;
  return (
    <section
      aria-label="Summary"
      className={
        bad
          ? 'grid gap-1 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm'
          : 'grid gap-1 rounded-lg border border-emerald-500/40 bg-emerald-500/5 p-4 text-sm'
      }
    >
      <p className="font-semibold">{verdict}</p>
      <p>
        {summary.baseline_run_id === null
          ? 'No earlier finished run of this set to compare with.'
          : `Against the previous run: ${plural(summary.regressions, 'cell', 'cells')} regressed, ${plural(summary.improvements, 'cell', 'cells')} improved.`}
      </p>
      <p className="text-muted-foreground">
        {formatTokens(summary.input_tokens, summary.output_tokens)} ·{' '}
        {formatCostUsd(summary.cost_usd)}
      </p>
      {run.notification ? (
        <p className={run.notification.sent ? 'text-muted-foreground' : 'text-destructive'}>
          E-mail: {run.notification.message}
        </p>
      ) : null}
    </section>
  );
};

const runChoiceLabel = (run: TestRunBrief) =>
  `${runTitle(run)} · ${formatPassRate(run.pass_rate)} passed${run.status === 'done' ? '' : ` (${run.status})`}`;

const CompareSelect = ({
  run,
  value,
  onChange,
}: {
  run: RunStatus;
  value: string;
  onChange: (value: string) => void;
}) => {
  const runs = useTestRuns(run.test_set_id, { live: false });
  const earlier = (runs.data?.pages.flatMap((page) => page.items) ?? []).filter(
    (other) => other.id !== run.id && other.created_at < run.created_at && !isGoing(other.status),
  );
  return (
    <Field label="Compare with" hint="Cells that got worse or better against it are marked.">
      {({ id, describedBy }) => (
        <NativeSelect
          id={id}
          aria-describedby={describedBy}
          className="w-auto max-w-full"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value={noCompare}>Nothing</option>
          {value !== noCompare && !earlier.some((other) => other.id === value) ? (
            <option value={value}>The previous run</option>
          ) : null}
          {earlier.map((other) => (
            <option key={other.id} value={other.id}>
              {runChoiceLabel(other)}
            </option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
};

/** The earlier run to compare with unless the address says otherwise: the run's baseline. */
const useDefaultBaseline = (run: RunStatus): string | null => {
  const runs = useTestRuns(run.test_set_id, { live: false });
  if (run.summary) return run.summary.baseline_run_id;
  const earlier = (runs.data?.pages.flatMap((page) => page.items) ?? []).find(
    (other) => other.id !== run.id && other.created_at < run.created_at && other.status === 'done',
  );
  return earlier?.id ?? null;
};

const MatrixSection = ({
  matrix,
  onOpenCell,
}: {
  matrix: ReturnType<typeof useTestRunMatrix>;
  onOpenCell: (cell: OpenCell) => void;
}) => {
  if (matrix.isPending) return <TableLoading label="Loading the results" />;
  if (matrix.isError) return <TableLoadError what="The results" error={matrix.error} />;
  if (matrix.data.cases.length === 0) {
    return <p className="text-sm text-muted-foreground">This run has no cases.</p>;
  }
  return <RunMatrix matrix={matrix.data} onOpenCell={onOpenCell} />;
};

const ExportButtons = ({ runId }: { runId: string }) => {
  const [busy, setBusy] = useState(false);
  const download = (format: 'csv' | 'json') => {
    setBusy(true);
    exportTestRun(runId, format)
      .then((name) => toast.success(`Downloaded ${name}`))
      .catch((error: unknown) =>
        toast.error('Could not export the run', { description: errorMessage(error) }),
      )
      .finally(() => setBusy(false));
  };
  return (
    <>
      <Button variant="outline" disabled={busy} onClick={() => download('csv')}>
        <Download aria-hidden="true" /> Export CSV
      </Button>
      <Button variant="outline" disabled={busy} onClick={() => download('json')}>
        <Download aria-hidden="true" /> Export JSON
      </Button>
    </>
  );
};

const RunView = ({ run }: { run: RunStatus }) => {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [openCell, setOpenCell] = useState<OpenCell | null>(null);
  const [deleting, setDeleting] = useState(false);
  const cancel = useCancelTestRun();
  const remove = useDeleteTestRun();
  const going = isGoing(run.status);
  usePageMeta({ title: run.name, description: `Results of the test run “${run.name}”.` });

  const baseline = useDefaultBaseline(run);
  const chosen = params.get('compare');
  const compareTo = chosen === noCompare ? null : (chosen ?? baseline);
  const matrix = useTestRunMatrix(run.id, compareTo, going);

  // Once the run ends, its matrix is read once more for the final numbers.
  const wasGoing = useRef(going);
  useEffect(() => {
    if (wasGoing.current && !going) {
      void queryClient.invalidateQueries({ queryKey: [...testRunnerQueryKey, 'runs'] });
    }
    wasGoing.current = going;
  }, [going, queryClient]);

  return (
    <div className="grid gap-6">
      <div>
        <Link
          to={testSetPagePath(run.test_set_id)}
          className="mb-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden="true" className="size-4" /> Back to the test set
        </Link>
        <PageHeader
          title={run.name}
          description={`Run started ${formatDateTime(run.started_at ?? run.created_at)}${run.source === 'token' ? ' with an access token' : ''} · ${plural(run.repeats, 'repeat', 'repeats')} per case and model${run.estimated_cost_usd !== null ? ` · estimated ${formatCostUsd(run.estimated_cost_usd)}` : ''}`}
          actions={
            <>
              {going ? (
                <Button
                  variant="destructive"
                  disabled={cancel.isPending}
                  onClick={() =>
                    cancel.mutate(run.id, {
                      onSuccess: () => toast.success('The run was cancelled'),
                      onError: (error) =>
                        toast.error('Could not cancel the run', {
                          description: errorMessage(error),
                        }),
                    })
                  }
                >
                  <Square aria-hidden="true" /> Cancel run
                </Button>
              ) : null}
              <ExportButtons runId={run.id} />
              {going ? null : (
                <Button variant="ghost" onClick={() => setDeleting(true)}>
                  <Trash2 aria-hidden="true" /> Delete run
                </Button>
              )}
            </>
          }
        />
        <div className="flex flex-wrap items-center gap-4">
          <RunStatusBadge status={run.status} />
          <div className="w-64">
            <RunProgress done={run.done} total={run.total} label="Run progress" />
          </div>
          <p role="status" aria-live="polite" className="text-sm text-muted-foreground">
            {progressText(run)}
          </p>
        </div>
      </div>
      {run.error ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 p-3 text-sm text-destructive"
        >
          {run.error}
        </p>
      ) : null}
      <Summary run={run} />
      <section aria-labelledby="matrix-heading" className="grid gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="matrix-heading" className="text-lg font-semibold">
            Results
          </h2>
          <CompareSelect
            run={run}
            value={compareTo ?? noCompare}
            onChange={(value) =>
              setParams(new URLSearchParams({ compare: value }), { replace: true })
            }
          />
        </div>
        {matrix.data?.compared_to ? (
          <p className="text-xs text-muted-foreground">
            Compared with the{' '}
            <Link to={testRunPagePath(matrix.data.compared_to.id)} className={linkClass}>
              {runOf(matrix.data.compared_to)}
            </Link>
            : ▼ regressed and ▲ improved cells are outlined.
          </p>
        ) : null}
        <MatrixSection matrix={matrix} onOpenCell={setOpenCell} />
        <p className="text-xs text-muted-foreground">
          Each cell: answers that passed every assertion over the repeats, latency p50 / p95, tokens
          and cost. Open a cell to read every answer in full.
        </p>
      </section>
      <CellDialog
        runId={run.id}
        matrix={matrix.data}
        open={openCell}
        onClose={() => setOpenCell(null)}
      />
      <ConfirmDialog
        open={deleting}
        title="Delete this run?"
        confirmLabel="Delete run"
        destructive
        onConfirm={() => {
          setDeleting(false);
          remove.mutate(run.id, {
            onSuccess: () => {
              toast.success('Run deleted');
              void navigate(testSetPagePath(run.test_set_id), { replace: true });
            },
            onError: (error) =>
              toast.error('Could not delete the run', { description: errorMessage(error) }),
          });
        }}
        onCancel={() => setDeleting(false)}
      >
        Its results go with it. The test set and its other runs stay.
      </ConfirmDialog>
    </div>
  );
};

/** `/test-runner/runs/:id`: a run's live progress, then its matrix of cases × models. */
export const TestRunPage = () => {
  const { id = '' } = useParams();
  const status = useTestRunStatus(id);
  if (status.isPending) return <CenteredSpinner label="Loading the run" />;
  if (status.isError) {
    if (isApiError(status.error) && (status.error.status === 404 || status.error.status === 400)) {
      return <NotFound />;
    }
    return (
      <div>
        <PageHeader title="Test run" />
        <TableLoadError what="The run" error={status.error} />
      </div>
    );
  }
  return <RunView key={status.data.id} run={status.data} />;
};
