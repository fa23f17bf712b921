import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TestRunBrief } from '@chorus/shared/api/test-runs';
import { Button } from '@/components/ui/button';
import { DataTable, TableLoadError, TableLoading } from '@/components/ui/data-table';
import { RunStatusBadge } from '@/lib/workflows/run-status-badge';
import { testRunPagePath, useTestRuns } from '../api/test-runs';
import { testSetPagePath } from '../api/test-sets';
import { formatPassRate, linkClass, runTitle, targetLabel } from './run-format';

/** "12 of 30 calls" and a bar, for a run's progress. */
export const RunProgress = ({
  done,
  total,
  label,
}: {
  done: number;
  total: number;
  label: string;
}) => (
  <div className="grid min-w-28 gap-1">
    <progress
      aria-label={label}
      className="h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-primary [&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:bg-primary"
      max={Math.max(total, 1)}
      value={done}
    />
    <span className="text-xs text-muted-foreground tabular-nums">
      {done.toLocaleString()} of {total.toLocaleString()} calls
    </span>
  </div>
);

/**
 * Runs, newest first, with their live status: one set's (`setId`), or all of the user's with the
 * set each ran.
 */
export const RunsTable = ({ setId, empty }: { setId: string | null; empty: ReactNode }) => {
  const runs = useTestRuns(setId);
  if (runs.isPending) return <TableLoading label="Loading runs" />;
  if (runs.isError) return <TableLoadError what="The runs" error={runs.error} />;
  const all: TestRunBrief[] = runs.data.pages.flatMap((page) => page.items);
  if (all.length === 0) return <div className="text-sm text-muted-foreground">{empty}</div>;
  return (
    <div className="grid gap-2">
      <DataTable
        caption={setId ? 'Runs of this set' : 'Recent runs'}
        columns={[
          { label: 'Run' },
          ...(setId ? [] : [{ label: 'Test set' }]),
          { label: 'Status' },
          { label: 'Progress' },
          { label: 'Passed' },
          { label: 'Models' },
        ]}
      >
        {all.map((run) => (
          <tr key={run.id}>
            <td className="px-4 py-3 whitespace-nowrap">
              <Link to={testRunPagePath(run.id)} className={linkClass}>
                {runTitle(run)}
              </Link>
            </td>
            {setId ? null : (
              <td className="px-4 py-3">
                <Link to={testSetPagePath(run.test_set_id)} className="hover:underline">
                  {run.name}
                </Link>
              </td>
            )}
            <td className="px-4 py-3">
              <RunStatusBadge status={run.status} />
            </td>
            <td className="px-4 py-3">
              <RunProgress
                done={run.done}
                total={run.total}
                label={`Progress of the ${runTitle(run)}`}
              />
            </td>
            <td className="px-4 py-3 tabular-nums">{formatPassRate(run.pass_rate)}</td>
            <td className="px-4 py-3 text-xs text-muted-foreground">
              {run.targets.map(targetLabel).join(', ')}
              {run.repeats > 1 ? ` · ×${run.repeats}` : ''}
            </td>
          </tr>
        ))}
      </DataTable>
      {runs.hasNextPage ? (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          disabled={runs.isFetchingNextPage}
          onClick={() => void runs.fetchNextPage()}
        >
          {runs.isFetchingNextPage ? 'Loading…' : 'Load older runs'}
        </Button>
      ) : null}
    </div>
  );
};
