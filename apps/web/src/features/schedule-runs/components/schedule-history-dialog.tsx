import type { Schedule } from '@chorus/shared/api/schedules';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LinkButton } from '@/components/ui/link-button';
import { PagedRuns } from '@/lib/workflows/paged-runs';
import { formatCostUsd, formatTokens } from '@/lib/workflows/run-format';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { workflowRunPagePath } from '@/lib/workflows/workflow-queries';
import { useScheduleRuns } from '../api/schedules';
import { formatInUserZone } from './schedule-times';

const triggerLabels = { cron: 'On schedule', manual: 'Run now', missed: 'Missed, run late' };

const Occurrences = ({ schedule }: { schedule: Schedule }) => (
  <PagedRuns
    runs={useScheduleRuns(schedule.id)}
    empty={
      <>
        No runs yet. The first one is due{' '}
        {formatInUserZone(schedule.next_runs[0], 'once it is resumed')}; use Run now to try it at
        once.
      </>
    }
  >
    {(all) => (
      <ol aria-label="Runs" className="grid max-h-[28rem] gap-2 overflow-y-auto">
        {all.map((run) => (
          <li
            key={run.id}
            aria-label={`Run of ${formatInUserZone(run.occurrence_at)}`}
            className="grid gap-1.5 rounded-lg border p-3"
          >
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <RunStatusBadge status={run.status} />
              <span className="font-medium">{formatInUserZone(run.occurrence_at)}</span>
              <span className="text-xs text-muted-foreground">{triggerLabels[run.trigger]}</span>
            </p>
            <p className="text-xs text-muted-foreground">
              {formatTokens(run.input_tokens, run.output_tokens)} · {formatCostUsd(run.cost_usd)}
            </p>
            {run.error ? (
              <p className="text-sm break-words text-destructive">{run.error.message}</p>
            ) : null}
            {run.output_text ? (
              <pre className="max-h-48 overflow-auto rounded-md bg-muted/50 p-2 text-xs break-words whitespace-pre-wrap">
                {run.output_text}
              </pre>
            ) : null}
            {run.workflow_run_id ? (
              <LinkButton
                to={workflowRunPagePath(run.workflow_run_id)}
                variant="outline"
                size="sm"
                className="justify-self-start"
              >
                Open the workflow run
              </LinkButton>
            ) : null}
          </li>
        ))}
      </ol>
    )}
  </PagedRuns>
);

/** Each occurrence of a schedule: when, why, how it ended, and what it answered. */
export const ScheduleHistoryDialog = ({
  schedule,
  onClose,
}: {
  schedule: Schedule | null;
  onClose: () => void;
}) => (
  <Dialog
    open={schedule !== null}
    title={schedule ? `Runs of “${schedule.name}”` : 'Runs'}
    onClose={onClose}
    className="max-w-2xl"
  >
    {schedule ? (
      <div className="grid gap-4">
        <Occurrences key={schedule.id} schedule={schedule} />
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    ) : null}
  </Dialog>
);
