import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { Workflow } from '@chorus/shared/api/workflows';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { PagedRuns } from '@/lib/workflows/paged-runs';
import { formatCostUsd, formatTokens } from '@/lib/workflows/run-format';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { useRestoreWorkflowVersion, useWorkflowRuns, useWorkflowVersions } from '../api/workflows';

const Runs = ({ workflow, onOpenRun }: { workflow: Workflow; onOpenRun: (id: string) => void }) => (
  <PagedRuns
    runs={useWorkflowRuns(workflow.id)}
    empty="No runs yet. Start one with Run on the workflow, or schedule it on the Schedule runs page."
  >
    {(all) => (
      <ul aria-label="Runs" className="max-h-72 divide-y overflow-y-auto rounded-lg border">
        {all.map((run) => (
          <li
            key={run.id}
            aria-label={`Run of ${formatDateTime(run.created_at)}`}
            className="flex flex-wrap items-center gap-2 px-3 py-2"
          >
            <RunStatusBadge status={run.status} />
            <span className="min-w-0 flex-1 text-sm">
              {formatDateTime(run.created_at)}
              <span className="block text-xs text-muted-foreground">
                Version {run.version} · {run.trigger === 'schedule' ? 'Scheduled' : 'Manual'} ·{' '}
                {formatTokens(run.input_tokens, run.output_tokens)} · {formatCostUsd(run.cost_usd)}
              </span>
            </span>
            <Button variant="outline" size="sm" onClick={() => onOpenRun(run.id)}>
              Open
            </Button>
          </li>
        ))}
      </ul>
    )}
  </PagedRuns>
);

const Versions = ({ workflow, onRestored }: { workflow: Workflow; onRestored: () => void }) => {
  const versions = useWorkflowVersions(workflow.id);
  const restore = useRestoreWorkflowVersion();
  const [restoring, setRestoring] = useState<number | null>(null);
  let body;
  if (versions.isPending) body = <Spinner label="Loading versions" />;
  else if (versions.isError) {
    body = (
      <p role="alert" className="text-sm text-destructive">
        The versions could not be loaded: {errorMessage(versions.error)} Close this and try again.
      </p>
    );
  } else {
    const sorted = [...versions.data.versions].sort((a, b) => b.version - a.version);
    body = (
      <ol aria-label="Versions" className="max-h-72 divide-y overflow-y-auto rounded-lg border">
        {sorted.map((version) => {
          const current = version.version === workflow.version;
          return (
            <li
              key={version.version}
              aria-label={`Version ${version.version}`}
              className="flex flex-wrap items-center gap-2 px-3 py-2"
            >
              <span className="min-w-0 flex-1 text-sm">
                Version {version.version}
                {current ? (
                  <span className="ml-2 rounded-full border px-2 py-0.5 text-xs text-muted-foreground">
                    Current
                  </span>
                ) : null}
                <span className="block text-xs text-muted-foreground">
                  {formatDateTime(version.created_at)} · {version.workflow.name} ·{' '}
                  {version.workflow.steps.length} steps
                </span>
              </span>
              {!current ? (
                <Button variant="outline" size="sm" onClick={() => setRestoring(version.version)}>
                  <RotateCcw aria-hidden="true" /> Restore
                </Button>
              ) : null}
            </li>
          );
        })}
      </ol>
    );
  }
  return (
    <>
      {body}
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore version ${restoring ?? ''}?`}
        confirmLabel="Restore this version"
        onConfirm={() => {
          const version = restoring;
          setRestoring(null);
          if (version === null) return;
          restore.mutate(
            { id: workflow.id, version },
            {
              onSuccess: (restored) => {
                toast.success(`Version ${version} restored as version ${restored.version}`);
                onRestored();
              },
              onError: (error) =>
                toast.error('Could not restore the version', { description: errorMessage(error) }),
            },
          );
        }}
        onCancel={() => setRestoring(null)}
      >
        The workflow goes back to its inputs and steps as they were in version {restoring}. Nothing
        is lost: that becomes a new version, and the current one stays here. Schedules that follow
        the latest version run it from their next occurrence.
      </ConfirmDialog>
    </>
  );
};

/** A workflow's runs, newest first and a page at a time, and its versions, each restorable. */
export const WorkflowHistoryDialog = ({
  workflow,
  onOpenRun,
  onClose,
}: {
  workflow: Workflow | null;
  onOpenRun: (runId: string) => void;
  onClose: () => void;
}) => (
  <Dialog
    open={workflow !== null}
    title={workflow ? `History of “${workflow.name}”` : 'History'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {workflow ? (
      <div key={workflow.id} className="grid gap-5">
        <section className="grid gap-2">
          <h3 className="text-sm font-semibold">Runs</h3>
          <Runs workflow={workflow} onOpenRun={onOpenRun} />
        </section>
        <section className="grid gap-2">
          <h3 className="text-sm font-semibold">Versions</h3>
          <Versions workflow={workflow} onRestored={onClose} />
        </section>
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    ) : null}
  </Dialog>
);
