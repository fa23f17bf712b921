import { History, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import type { ScenarioRun } from '@chorus/shared/api/scenarios';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { useScenarioRuns } from '../api/get-scenario-runs';
import { modelLabel, providerLabel } from '../utils/model-label';
import { TargetChips } from './target-chips';

const statusLabel: Record<ScenarioRun['status'], string | null> = {
  done: null,
  running: 'Running',
  interrupted: 'Interrupted',
};

const Winner = ({ run }: { run: ScenarioRun }) => {
  const winner = run.winner === null ? undefined : run.results[run.winner];
  return (
    <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
      <Trophy aria-hidden="true" className="size-3.5" />
      {winner
        ? `Winner: ${providerLabel(winner.provider)} · ${modelLabel(winner.provider, winner.model)}`
        : 'No winner picked'}
    </p>
  );
};

/** The scenario's past runs, newest first; each opens on the run page. */
export const RunHistory = ({ scenarioId }: { scenarioId: string }) => {
  const runs = useScenarioRuns(scenarioId);
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section aria-labelledby="run-history-title" className="grid content-start gap-3">
      <h2 id="run-history-title" className="flex items-center gap-2 font-semibold">
        <History aria-hidden="true" className="size-4 text-muted-foreground" />
        Run history
      </h2>
      {runs.isPending ? (
        <div className="py-6">
          <Spinner label="Loading runs" />
        </div>
      ) : runs.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The runs could not be loaded: {errorMessage(runs.error)}
        </p>
      ) : items.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No runs yet. Run the scenario to compare its models; every run is kept here with its
          answers, ratings and winner.
        </p>
      ) : (
        <ol aria-label="Runs" className="grid gap-2">
          {items.map((run) => (
            <li key={run.id} className="grid gap-1.5 rounded-lg border bg-card p-3">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <Link
                  to={`/scenario-proxy-plus?run=${run.id}`}
                  className="font-medium underline underline-offset-4"
                >
                  {formatDateTime(run.created_at)}
                </Link>
                {statusLabel[run.status] ? (
                  <span className="rounded bg-muted px-1.5 py-0.5 text-xs">
                    {statusLabel[run.status]}
                  </span>
                ) : null}
              </p>
              <TargetChips targets={run.results} label="Models of this run" />
              <Winner run={run} />
            </li>
          ))}
        </ol>
      )}
      {runs.hasNextPage ? (
        <div>
          <Button
            variant="outline"
            size="sm"
            disabled={runs.isFetchingNextPage}
            onClick={() => void runs.fetchNextPage()}
          >
            {runs.isFetchingNextPage ? 'Loading more…' : 'Load more runs'}
          </Button>
        </div>
      ) : null}
    </section>
  );
};
