import { useState } from 'react';
import type { TrendEntry, Trends } from '@chorus/shared/api/trends';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useTrends } from '../api/get-trends';

type Period = 'days7' | 'days30';

const periods: { value: Period; label: string; days: number }[] = [
  { value: 'days7', label: '7 days', days: 7 },
  { value: 'days30', label: '30 days', days: 30 },
];

const count = new Intl.NumberFormat('en-US');
const people = (n: number) => (n === 1 ? 'person' : 'people');

const TrendList = ({
  id,
  title,
  unit,
  entries,
  empty,
}: {
  id: string;
  title: string;
  unit: (n: number) => string;
  entries: TrendEntry[];
  empty: string;
}) => {
  const top = Math.max(...entries.map((entry) => entry.count), 1);
  return (
    <section aria-labelledby={id} className="rounded-xl border bg-card p-4">
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {entries.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">{empty}</p>
      ) : (
        <ol className="mt-3 grid gap-3">
          {entries.map((entry, index) => (
            <li key={entry.id} className="grid gap-1 text-sm">
              <div className="flex items-baseline justify-between gap-3">
                <span className="min-w-0 break-words">
                  <span className="text-muted-foreground tabular-nums">{index + 1}. </span>
                  {entry.title}
                </span>
                <span className="shrink-0 tabular-nums">
                  <span className="font-medium">{count.format(entry.count)}</span>{' '}
                  <span className="text-xs text-muted-foreground">{unit(entry.count)}</span>
                </span>
              </div>
              <div aria-hidden="true" className="h-2 rounded-full bg-muted">
                <div
                  className="h-full rounded-full bg-primary/80"
                  style={{ width: `${(entry.count / top) * 100}%` }}
                />
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
};

const Aggregates = ({ trends }: { trends: Trends }) => {
  const [period, setPeriod] = useState<Period>('days7');
  const days = periods.find((p) => p.value === period)?.days ?? 7;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="group" aria-label="Period" className="inline-flex rounded-lg bg-muted p-1">
          {periods.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              aria-pressed={period === value}
              onClick={() => setPeriod(value)}
              className={cn(
                'rounded-md px-3 py-1 text-sm font-medium transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                period === value
                  ? 'bg-background text-foreground shadow-sm dark:bg-input/40'
                  : 'text-muted-foreground hover:text-foreground',
              )}
            >
              Last {label}
            </button>
          ))}
        </div>
        <p className="text-xs text-muted-foreground">
          Counted {formatDateTime(trends.generated_at)}
        </p>
      </div>
      <p className="text-sm text-muted-foreground">
        Each count is the number of different people who copied the prompt or ran the scenario, so
        repeated use by one person counts once. Anything below {trends.min_count} people is hidden,
        so no single person&apos;s use can be picked out.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <TrendList
          id="trends-prompts"
          title="Most-copied public prompts"
          unit={people}
          entries={trends.prompts[period]}
          empty={`No public prompt has been copied by ${trends.min_count} or more people in the last ${days} days yet.`}
        />
        <TrendList
          id="trends-scenarios"
          title="Most-run cookbook scenarios"
          unit={people}
          entries={trends.scenarios[period]}
          empty={`No cookbook scenario has been run by ${trends.min_count} or more people in the last ${days} days yet.`}
        />
      </div>
    </div>
  );
};

/** This instance's real aggregates from `GET /rest/v1/trends`. */
export const InstanceTrends = () => {
  const trends = useTrends();
  if (trends.isPending) {
    return (
      <div className="flex justify-center rounded-xl border py-10">
        <Spinner label="Loading this instance's trends" />
      </div>
    );
  }
  if (trends.isError) {
    return (
      <div
        role="alert"
        className="flex flex-col gap-3 rounded-xl border border-destructive/40 p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
      >
        <p>
          This instance&apos;s trends could not be loaded: {errorMessage(trends.error)} The sample
          figures above do not depend on them.
        </p>
        <Button variant="outline" size="sm" onClick={() => void trends.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return <Aggregates trends={trends.data} />;
};
