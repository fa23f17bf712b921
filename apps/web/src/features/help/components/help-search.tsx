import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useState,
  type KeyboardEvent,
} from 'react';
import { useLocation, useNavigate, useNavigationType, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { loadHelpSearch, type HelpSearch } from '../lib/load-help-search';
import { HelpSearchField } from './search-field';

/**
 * The query in the box and in the URL (`?q=`): typing replaces the URL as it goes, so a search can
 * be shared or reloaded; arriving at another URL (Back, a link) puts its query in the box.
 */
export const useHelpQuery = () => {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigationType = useNavigationType();
  const urlQuery = params.get('q') ?? '';
  const [text, setText] = useState(urlQuery);
  const [seenKey, setSeenKey] = useState(location.key);
  if (location.key !== seenKey) {
    setSeenKey(location.key);
    // Our own typing replaces the URL; only a navigation from elsewhere changes the box.
    if (navigationType !== 'REPLACE' && urlQuery !== text) setText(urlQuery);
  }
  const change = (next: string) => {
    setText(next);
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        if (next.trim()) updated.set('q', next);
        else updated.delete('q');
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  return [text, change] as const;
};

/** The search, loaded the first time there is something to search for (or the box gets focus). */
export const useHelpSearch = (query: string) => {
  const [search, setSearch] = useState<HelpSearch | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(() => {
    setFailed(false);
    loadHelpSearch().then(
      (loaded) => setSearch(() => loaded),
      () => setFailed(true),
    );
  }, []);
  const wanted = query.trim() !== '';
  useEffect(() => {
    if (wanted && !search) {
      loadHelpSearch().then(
        (loaded) => setSearch(() => loaded),
        () => setFailed(true),
      );
    }
  }, [wanted, search]);
  const deferred = useDeferredValue(query.trim());
  const results = useMemo(() => (search && deferred ? search(deferred) : []), [search, deferred]);
  return { results, ready: search !== null, failed, load, searched: deferred };
};

const focusResult = (listId: string, index: number) =>
  document.getElementById(`${listId}-${index}`)?.focus();

// The results' markup is downloaded with the search itself, at the first search.
const ResultList = lazy(() =>
  import('./search-results').then((module) => ({ default: module.ResultList })),
);

const statusText = (search: ReturnType<typeof useHelpSearch>, query: string): string => {
  if (search.failed)
    return 'The search could not be loaded. Check your connection, then try again.';
  if (!search.ready || search.searched !== query) return 'Searching…';
  const count = search.results.length;
  if (count === 0)
    return `No article matches “${query}”. Try other words, or browse the guides below.`;
  return `${count} ${count === 1 ? 'article matches' : 'articles match'} “${query}”.`;
};

/**
 * The search of /help: a box whose results appear as one types, ranked, each a link to the
 * article at its best heading. ↓ moves from the box to the results, ↑ and ↓ through them, Enter
 * (in the box) opens the first, Esc clears the box.
 */
export const HelpSearchPanel = ({
  query,
  onQueryChange,
  search,
}: {
  query: string;
  onQueryChange: (value: string) => void;
  search: ReturnType<typeof useHelpSearch>;
}) => {
  const navigate = useNavigate();
  const listId = useId();
  const hintId = useId();
  const inputId = `${listId}-input`;
  const trimmed = query.trim();
  const results = trimmed && search.searched === trimmed ? search.results : [];

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && results.length > 0) {
      event.preventDefault();
      focusResult(listId, 0);
    } else if (event.key === 'Escape' && query) {
      event.preventDefault();
      onQueryChange('');
    }
  };

  return (
    <section aria-label="Search the help center" className="grid gap-4">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const first = results[0];
          if (first) void navigate(first.href);
        }}
      >
        <HelpSearchField
          id={inputId}
          value={query}
          onChange={onQueryChange}
          onKeyDown={onKeyDown}
          onFocus={search.ready ? undefined : search.load}
          describedBy={hintId}
        />
        <p id={hintId} className="mt-2 text-xs text-muted-foreground">
          Results appear as you type. Press ↓ to move to them, Enter to open the first.
        </p>
      </form>
      <p role="status" className={trimmed ? 'text-sm font-medium' : 'sr-only'}>
        {trimmed ? statusText(search, trimmed) : ''}
      </p>
      {trimmed ? (
        <div className="grid gap-3">
          {search.failed ? (
            <div>
              <Button variant="outline" size="sm" onClick={search.load}>
                Try again
              </Button>
            </div>
          ) : null}
          {results.length > 0 ? (
            <Suspense fallback={null}>
              <ResultList
                results={results}
                resultId={(index) => `${listId}-${index}`}
                onLeave={() => document.getElementById(inputId)?.focus()}
              />
            </Suspense>
          ) : null}
        </div>
      ) : null}
    </section>
  );
};
