import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';

/** What a history dialog needs of an infinite query of runs, a page at a time. */
type PagedRunsQuery<T> = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: { pages: { runs: T[] }[] } | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/**
 * Runs, newest first, as a history dialog lists them: loading, their error, `empty` when there
 * are none, else the list (`children`, given every run loaded) and "Load older runs".
 */
export const PagedRuns = <T,>({
  runs,
  empty,
  children,
}: {
  runs: PagedRunsQuery<T>;
  empty: ReactNode;
  children: (all: T[]) => ReactNode;
}) => {
  if (runs.isPending) return <Spinner label="Loading runs" />;
  if (runs.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The runs could not be loaded: {errorMessage(runs.error)} Close this and try again.
      </p>
    );
  }
  const all = runs.data?.pages.flatMap((page) => page.runs) ?? [];
  if (all.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <div className="grid gap-2">
      {children(all)}
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
