import { Boxes, Play, Plus, Search, Trash2 } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import type { Scenario } from '@chorus/shared/api/scenarios';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { SearchInput } from '@/components/ui/search-input';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { helpLinks } from '@/lib/help-links';
import { toast } from '@/lib/toast';
import { useDeleteScenario } from '../api/delete-scenario';
import { useScenarios } from '../api/get-scenarios';
import { PopularScenarios } from './popular-scenarios';
import { TargetChips } from './target-chips';

const ScenarioRow = ({ scenario, onDelete }: { scenario: Scenario; onDelete: () => void }) => (
  <li
    aria-label={scenario.title}
    className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-[1fr_auto]"
  >
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2">
        <Link
          to={`/scenarios/${scenario.id}`}
          className="font-medium break-words underline-offset-4 hover:underline"
        >
          {scenario.title}
        </Link>
        {scenario.category ? (
          <span className="rounded bg-muted px-1.5 py-0.5 text-xs">{scenario.category}</span>
        ) : null}
      </p>
      {scenario.description ? (
        <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{scenario.description}</p>
      ) : null}
      <TargetChips targets={scenario.targets} className="mt-2" />
      <p className="mt-2 text-xs text-muted-foreground">
        {scenario.last_run_at ? `Last run ${formatDateTime(scenario.last_run_at)}` : 'Never run'}
      </p>
    </div>
    <div className="flex flex-wrap items-start gap-2 sm:justify-end">
      <LinkButton to={`/scenarios/${scenario.id}`} variant="outline" size="sm">
        Open<span className="sr-only"> “{scenario.title}”</span>
      </LinkButton>
      <LinkButton to={`/scenario-proxy-plus?scenario=${scenario.id}`} size="sm">
        <Play aria-hidden="true" />
        Run<span className="sr-only"> “{scenario.title}”</span>
      </LinkButton>
      <Button variant="ghost" size="sm" onClick={onDelete}>
        <Trash2 aria-hidden="true" />
        Delete<span className="sr-only"> “{scenario.title}”</span>
      </Button>
    </div>
  </li>
);

const NoScenarios = () => (
  <EmptyState
    icon={Boxes}
    title="No scenarios yet"
    action={
      <>
        <LinkButton to="/scenarios/new">
          <Plus aria-hidden="true" /> New scenario
        </LinkButton>
        <LinkButton to="/scenarios-cookbook" variant="outline">
          Browse the cookbook
        </LinkButton>
        <LinkButton to={helpLinks.scenarios} variant="ghost">
          How scenarios work
        </LinkButton>
      </>
    }
  >
    A scenario is a prompt you want to try on several models: a system prompt, a prompt with
    optional {'{{variables}}'}, and up to eight providers and models. Run it to see their answers
    side by side with speed, tokens and cost, rate them and keep the best as a test case. Start from
    scratch or copy a recipe from the cookbook.
  </EmptyState>
);

export const ScenariosPage = () => {
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const list = useScenarios(deferredSearch);
  const remove = useDeleteScenario();
  const [deleting, setDeleting] = useState<Scenario | null>(null);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const searching = deferredSearch.trim() !== '';

  return (
    <div>
      <PageHeader
        title="Scenarios"
        description="Prompts you compare across providers and models: run one to see every answer side by side, with speed, tokens and cost."
        actions={
          <>
            <LinkButton to="/scenarios-cookbook" variant="outline">
              Browse the cookbook
            </LinkButton>
            <LinkButton to="/scenarios/new">
              <Plus aria-hidden="true" /> New scenario
            </LinkButton>
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="grid content-start gap-4">
          <SearchInput
            label="Search scenarios"
            className="sm:max-w-sm"
            placeholder="Search title or description"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          {list.isPending ? (
            <TableLoading label="Loading scenarios" />
          ) : list.isError ? (
            <TableLoadError what="Your scenarios" error={list.error} />
          ) : items.length === 0 ? (
            searching ? (
              <EmptyState icon={Search} title="No scenario matches">
                Nothing in your scenarios matches “{deferredSearch.trim()}”. Try other words or
                clear the search.
              </EmptyState>
            ) : (
              <NoScenarios />
            )
          ) : (
            <>
              <ul aria-label="Your scenarios" className="grid gap-3">
                {items.map((scenario) => (
                  <ScenarioRow
                    key={scenario.id}
                    scenario={scenario}
                    onDelete={() => setDeleting(scenario)}
                  />
                ))}
              </ul>
              {list.hasNextPage ? (
                <div>
                  <Button
                    variant="outline"
                    disabled={list.isFetchingNextPage}
                    onClick={() => void list.fetchNextPage()}
                  >
                    {list.isFetchingNextPage ? 'Loading more…' : 'Load more'}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </div>
        <div>
          <PopularScenarios />
        </div>
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.title ?? ''}”?`}
        confirmLabel="Delete scenario"
        destructive
        onConfirm={() => {
          const scenario = deleting;
          setDeleting(null);
          if (!scenario) return;
          remove.mutate(scenario.id, {
            onSuccess: () => toast.success(`“${scenario.title}” deleted`),
            onError: (error) =>
              toast.error(`Could not delete “${scenario.title}”`, {
                description: errorMessage(error),
              }),
          });
        }}
        onCancel={() => setDeleting(null)}
      >
        The scenario goes; its past runs and the test cases saved from them stay.
      </ConfirmDialog>
    </div>
  );
};
