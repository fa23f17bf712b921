import { BookOpen, Copy, Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { LibraryScenario } from '@chorus/shared/api/library';
import { signInRedirect } from '@chorus/shared/routes';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useCopyLibraryScenario } from '../api/copy-library-scenario';
import { useLibraryScenarios } from '../api/get-library-scenarios';
import { TargetChips } from './target-chips';

export const cookbookPath = '/scenarios-cookbook';
/** The query that brings a visitor back from signing in to copy the entry they chose. */
const useParam = 'use';

const promptOf = (entry: LibraryScenario) =>
  entry.user_prompt || entry.steps.map((step, i) => `${i + 1}. ${step}`).join('\n');

const matches = (entry: LibraryScenario, words: string[]) => {
  const haystack =
    `${entry.title} ${entry.description} ${entry.category} ${promptOf(entry)}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
};

const CookbookCard = ({
  entry,
  copying,
  disabled,
  onUse,
}: {
  entry: LibraryScenario;
  copying: boolean;
  disabled: boolean;
  onUse: () => void;
}) => (
  <li
    aria-labelledby={`cookbook-${entry.id}`}
    className="flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm"
  >
    <div className="flex flex-wrap items-center gap-2">
      <span className="rounded bg-muted px-1.5 py-0.5 text-xs">{entry.category}</span>
      {entry.featured ? (
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Featured
        </span>
      ) : null}
    </div>
    <h2 id={`cookbook-${entry.id}`} className="text-lg leading-snug font-semibold">
      {entry.title}
    </h2>
    {entry.description ? (
      <p className="text-sm text-muted-foreground">{entry.description}</p>
    ) : null}
    <div className="rounded-md bg-muted/50 p-3">
      <p className="text-xs font-medium text-muted-foreground">Prompt</p>
      <p className="mt-1 line-clamp-5 text-sm break-words whitespace-pre-wrap">{promptOf(entry)}</p>
    </div>
    <TargetChips targets={entry.targets} label="Suggested models" />
    <div className="mt-auto pt-1">
      <Button onClick={onUse} disabled={disabled}>
        <Copy aria-hidden="true" />
        {copying ? 'Copying…' : 'Use this scenario'}
        <span className="sr-only"> “{entry.title}”</span>
      </Button>
    </div>
  </li>
);

export const ScenariosCookbookPage = () => {
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const wanted = params.get(useParam);
  const library = useLibraryScenarios();
  const { copy, copyingId } = useCopyLibraryScenario();
  const [category, setCategory] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const resumed = useRef(false);

  const use = (entry: Pick<LibraryScenario, 'id' | 'title'>) => {
    if (session.status !== 'signed-in') {
      void navigate(signInRedirect(`${cookbookPath}?${useParam}=${encodeURIComponent(entry.id)}`));
      return;
    }
    copy(entry.id).then(
      (scenario) => {
        toast.success(`“${entry.title}” is now in your scenarios`);
        void navigate(`/scenarios/${scenario.id}`, { replace: wanted !== null });
      },
      (error: unknown) => {
        toast.error(`Could not copy “${entry.title}”`, { description: errorMessage(error) });
        if (wanted !== null) setParams({}, { replace: true });
      },
    );
  };

  // Back from signing in with ?use=<id>: copy the entry chosen before, once.
  useEffect(() => {
    if (!wanted || resumed.current || session.status !== 'signed-in') return;
    resumed.current = true;
    const entry = library.data?.items.find((item) => item.id === wanted);
    use({ id: wanted, title: entry?.title ?? 'the scenario' });
  });

  const items = library.data?.items ?? [];
  const categories = [...new Set(items.map((entry) => entry.category))].sort((a, b) =>
    a.localeCompare(b),
  );
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = items.filter(
    (entry) => (category === null || entry.category === category) && matches(entry, words),
  );
  const resuming = wanted !== null && session.status === 'signed-in';

  return (
    <div>
      <PageHeader
        title="Scenarios cookbook"
        description="Ready-made scenarios for common jobs (writing, research, code review) to run across several models side by side. Use one to copy it into your workspace and adapt it."
      />
      {resuming ? (
        <p role="status" className="mb-6 flex items-center gap-3 text-sm">
          <span
            aria-hidden="true"
            className="inline-block size-4 animate-spin rounded-full border-2 border-muted-foreground/30 border-t-primary"
          />
          Copying the scenario into your workspace…
        </p>
      ) : null}
      {library.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading the cookbook" />
        </div>
      ) : library.isError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 p-4 text-sm text-destructive"
        >
          The cookbook could not be loaded: {errorMessage(library.error)} Try reloading the page.
        </p>
      ) : items.length === 0 ? (
        <EmptyState
          icon={BookOpen}
          title="No recipes published yet"
          action={
            <>
              <LinkButton to="/help" variant="outline">
                Read the help center
              </LinkButton>
              <LinkButton to="/scenarios">Go to your scenarios</LinkButton>
            </>
          }
        >
          Published scenarios are listed here by category, with the models they suit. Meanwhile you
          can build your own scenarios and run them against any provider.
        </EmptyState>
      ) : (
        <div className="grid gap-6">
          <div className="grid gap-3">
            <SearchInput
              label="Search the cookbook"
              className="sm:max-w-sm"
              placeholder="Search the cookbook"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            <div role="group" aria-label="Category" className="flex flex-wrap gap-2">
              {[null, ...categories].map((name) => (
                <button
                  key={name ?? 'all'}
                  type="button"
                  aria-pressed={category === name}
                  onClick={() => setCategory(name)}
                  className={cn(
                    'rounded-full border px-3 py-1 text-sm transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                    category === name
                      ? 'border-primary bg-primary text-primary-foreground'
                      : 'bg-background hover:bg-accent',
                  )}
                >
                  {name ?? 'All'}
                </button>
              ))}
            </div>
          </div>
          <p aria-live="polite" className="sr-only">
            {shown.length === 1 ? '1 scenario shown' : `${shown.length} scenarios shown`}
          </p>
          {shown.length === 0 ? (
            <EmptyState icon={Search} title="Nothing matches">
              No published scenario matches this search and category. Try other words or pick All.
            </EmptyState>
          ) : (
            <ul aria-label="Cookbook scenarios" className="grid gap-4 md:grid-cols-2">
              {shown.map((entry) => (
                <CookbookCard
                  key={entry.id}
                  entry={entry}
                  copying={copyingId === entry.id}
                  disabled={copyingId !== null || resuming}
                  onUse={() => use(entry)}
                />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
};
