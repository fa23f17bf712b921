import cronstrue from 'cronstrue';
import { ServerCog } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { JobQueueSummary } from '@chorus/shared/api/jobs';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useFailedJobs, useJobQueues } from '../api/get-jobs';
import { useRetryJob } from '../api/retry-job';
import {
  TableLoadError,
  TableLoading,
  DataTable,
  type TableColumn,
} from '@/components/ui/data-table';
import { formatDateTime as formatTime } from '@/lib/format';

const queueColumns: TableColumn[] = [
  { label: 'Queue' },
  { label: 'Schedule' },
  { label: 'Waiting', end: true },
  { label: 'Later', end: true },
  { label: 'Running', end: true },
  { label: 'Done (7 days)', end: true },
  { label: 'Failed', end: true },
];

const failedColumns: TableColumn[] = [
  { label: 'Error' },
  { label: 'Failed' },
  { label: 'Retries', end: true },
  { label: 'Actions', end: true, hidden: true },
];

/** "At 17 minutes past the hour (UTC)", or the expression itself if it cannot be read. */
const describeCron = (cron: string) => {
  try {
    return `${cronstrue.toString(cron, { use24HourTimeFormat: true, verbose: false })} (UTC)`;
  } catch {
    return `${cron} (UTC)`;
  }
};

const Schedule = ({ queue }: { queue: JobQueueSummary }) =>
  queue.cron ? (
    <div>
      <div>{describeCron(queue.cron)}</div>
      <div className="text-xs text-muted-foreground">
        Next {formatTime(queue.next_run_at)} · last finished{' '}
        {formatTime(queue.last_completed_at, 'not yet')}
      </div>
    </div>
  ) : (
    <div>
      <div>When needed</div>
      <div className="text-xs text-muted-foreground">
        Last finished {formatTime(queue.last_completed_at, 'not yet')}
      </div>
    </div>
  );

/** The runs of one queue that failed for good, each with a button to run it again. */
const FailedJobsPanel = ({ queue, onClose }: { queue: JobQueueSummary; onClose: () => void }) => {
  const failed = useFailedJobs(queue.name);
  const retry = useRetryJob();

  return (
    <section aria-labelledby="failed-heading" className="mt-6">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 id="failed-heading" className="text-lg font-semibold">
          Failed: {queue.title}
        </h2>
        <Button size="sm" variant="outline" onClick={onClose}>
          Close
        </Button>
      </div>
      {failed.isPending ? (
        <TableLoading label="Loading failed jobs" />
      ) : failed.isError ? (
        <TableLoadError what="The failed jobs" error={failed.error} />
      ) : failed.data.jobs.length === 0 ? (
        <p className="rounded-lg border p-4 text-sm text-muted-foreground">
          Nothing has failed in this queue. Failed runs are kept for a week.
        </p>
      ) : (
        <DataTable columns={failedColumns} caption={`Failed runs of ${queue.title}`}>
          {failed.data.jobs.map((job) => (
            <tr key={job.id}>
              <td className="px-4 py-3">
                <div className="break-words">{job.error}</div>
                <div className="font-mono text-xs text-muted-foreground">{job.id}</div>
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{formatTime(job.failed_at)}</td>
              <td className="px-4 py-3 text-right tabular-nums">{job.retry_count}</td>
              <td className="px-4 py-3 text-right">
                <Button
                  size="sm"
                  disabled={retry.isPending}
                  aria-label={`Retry job ${job.id}`}
                  onClick={() =>
                    retry.mutate(
                      { name: queue.name, id: job.id },
                      {
                        onSuccess: () => toast.success('The job will run again in a moment.'),
                        onError: (e) => toast.error(errorMessage(e, 'The job was not retried.')),
                      },
                    )
                  }
                >
                  Retry
                </Button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
};

/** `/admin/jobs`: the background queues, their schedules and sizes, and what failed. */
export const JobsPage = () => {
  const { data, isPending, isError, error, isFetching } = useJobQueues();
  const [openName, setOpenName] = useState<string | null>(null);
  const open = data?.queues.find((q) => q.name === openName);

  return (
    <div>
      <PageHeader
        title="Background jobs"
        description="Work Chorus does outside a request: e-mail retries and housekeeping on a schedule. Sizes update every few seconds; a run that failed for good can be run again."
        actions={isFetching && !isPending ? <Spinner label="Refreshing" /> : undefined}
      />
      {isPending ? (
        <TableLoading label="Loading queues" />
      ) : isError ? (
        <TableLoadError what="The job queues" error={error} />
      ) : data.queues.length === 0 ? (
        <EmptyState icon={ServerCog} title="No queues">
          This server runs no background work. Queues appear here once it starts with its job list.
        </EmptyState>
      ) : (
        <DataTable columns={queueColumns} caption="Background queues">
          {data.queues.map((q) => (
            <tr key={q.name}>
              <td className="px-4 py-3">
                <div className="font-medium">{q.title}</div>
                <div className="font-mono text-xs text-muted-foreground">{q.name}</div>
              </td>
              <td className="px-4 py-3">
                <Schedule queue={q} />
              </td>
              <td className="px-4 py-3 text-right tabular-nums">{q.ready}</td>
              <td className="px-4 py-3 text-right tabular-nums">{q.deferred}</td>
              <td className="px-4 py-3 text-right tabular-nums">{q.active}</td>
              <td className="px-4 py-3 text-right tabular-nums">{q.completed}</td>
              <td className="px-4 py-3 text-right">
                {q.failed > 0 ? (
                  <Button
                    size="sm"
                    variant={openName === q.name ? 'secondary' : 'outline'}
                    aria-label={`Show ${q.failed} failed ${q.title} jobs`}
                    onClick={() => setOpenName(q.name)}
                  >
                    {q.failed} failed
                  </Button>
                ) : (
                  <span className="tabular-nums text-muted-foreground">0</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {open ? <FailedJobsPanel queue={open} onClose={() => setOpenName(null)} /> : null}
    </div>
  );
};
