import { Compass, Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { DiscoverItem } from '@chorus/shared/api/discover';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { usePageMeta } from '@/lib/use-page-meta';
import { itemKey, useCopyDiscoverItem } from '../api/copy-discover-item';
import { useDiscover } from '../api/get-discover';
import {
  defaultFilters,
  filtersToParams,
  hasFilters,
  readFilters,
  readUseRequest,
  signInToUse,
  type DiscoverFilters,
  type UseRequest,
} from '../utils/discover-params';
import { DiscoverCard } from './discover-card';
import { DiscoverFiltersBar } from './discover-filters';

const countText = (shown: number, more: boolean) =>
  `${shown === 1 ? '1 result' : `${shown} results`} shown${more ? ', more to load' : ''}`;

export const DiscoverPage = () => {
  usePageMeta({
    title: 'Discover',
    description:
      'Search the prompts, scenarios and custom AIs shared on this Chorus instance by category, tag and popularity; copy one into your workspace or start a chat.',
  });
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const wanted = readUseRequest(params);
  const discover = useDiscover(filters);
  const { copy, copying } = useCopyDiscoverItem();
  const [copied, setCopied] = useState<ReadonlySet<string>>(new Set());
  const resumed = useRef(false);

  const setFilters = (next: Partial<DiscoverFilters>) =>
    setParams(filtersToParams({ ...filters, ...next }), { replace: true });
  // The order is a way of looking, not a filter: it stays.
  const clearFilters = () => setParams(filtersToParams({ ...defaultFilters, sort: filters.sort }));

  const use = ({ kind, id, title }: UseRequest & { title: string }) => {
    if (session.status !== 'signed-in') {
      void navigate(signInToUse(filters, { kind, id }));
      return;
    }
    // Back from sign-in: the item is copied once; a reload must not copy it again.
    const dropUse = () => {
      if (wanted) setParams(filtersToParams(filters), { replace: true });
    };
    copy(kind, id).then(
      (copiedItem) => {
        if (copiedItem.kind === 'scenario') {
          toast.success(`“${title}” is now in your scenarios`);
          void navigate(`/scenarios/${copiedItem.item.id}`, { replace: wanted !== null });
          return;
        }
        setCopied((before) => new Set(before).add(itemKey(kind, id)));
        toast.success(`“${title}” is now in your prompts`, {
          action: { label: 'Open prompts', onClick: () => void navigate('/prompts') },
        });
        dropUse();
      },
      (error: unknown) => {
        toast.error(`Could not copy “${title}”`, { description: errorMessage(error) });
        dropUse();
      },
    );
  };

  const pages = discover.data?.pages ?? [];
  const items = pages.flatMap((page) => page.items);
  const first = pages[0];

  // Back from signing in with ?use=kind:id: copy the item chosen before, once (after the first
  // page, which usually holds it, so the message can name it).
  useEffect(() => {
    if (!wanted || resumed.current || session.status !== 'signed-in' || discover.isPending) return;
    resumed.current = true;
    const item = items.find((entry) => entry.kind === wanted.kind && entry.id === wanted.id);
    use({ ...wanted, title: item?.title ?? `the ${wanted.kind}` });
  });

  const resuming = wanted !== null && session.status === 'signed-in' && copying !== null;
  const filtered = hasFilters(filters);

  const card = (item: DiscoverItem) => {
    const key = itemKey(item.kind, item.id);
    return (
      <DiscoverCard
        key={key}
        item={item}
        copying={copying === key}
        disabled={copying !== null}
        copied={copied.has(key)}
        highlighted={wanted !== null && itemKey(wanted.kind, wanted.id) === key}
        onUse={() => {
          if (item.kind !== 'custom_ai') use({ kind: item.kind, id: item.id, title: item.title });
        }}
        onTag={(tag) => setFilters({ tag })}
      />
    );
  };

  return (
    <div>
      <PageHeader
        title="Discover"
        description="Everything shared on this instance in one place: prompts from the library, scenarios from the cookbook and custom AIs. Use a prompt or scenario to copy it into your own workspace, or start a chat with a custom AI."
      />
      {resuming && wanted ? (
        <p role="status" className="mb-6 flex items-center gap-3 text-sm">
          <span
            aria-hidden="true"
            className="inline-block size-4 animate-spin rounded-full border-2 border-muted-foreground/30 border-t-primary"
          />
          Copying the {wanted.kind} you chose into your workspace…
        </p>
      ) : null}
      <div className="grid gap-6">
        <DiscoverFiltersBar
          filters={filters}
          categories={first?.categories ?? []}
          tags={first?.tags ?? []}
          onChange={setFilters}
          onClear={clearFilters}
        />
        {discover.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading the directory" />
          </div>
        ) : discover.isError && items.length === 0 ? (
          <div
            role="alert"
            className="flex flex-col gap-3 rounded-xl border border-destructive/40 p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
          >
            <p>
              The directory could not be loaded: {errorMessage(discover.error)} Check your
              connection and try again.
            </p>
            <Button variant="outline" size="sm" onClick={() => void discover.refetch()}>
              Try again
            </Button>
          </div>
        ) : items.length === 0 ? (
          filtered ? (
            <EmptyState
              icon={Search}
              title="Nothing matches these filters"
              action={
                <Button variant="outline" onClick={clearFilters}>
                  Clear filters
                </Button>
              }
            >
              No public prompt, scenario or custom AI matches this search, kind, category and tag.
              Try fewer words, another category, or clear the filters.
            </EmptyState>
          ) : (
            <EmptyState
              icon={Compass}
              title="Nothing is shared yet"
              action={
                <>
                  <LinkButton to="/prompts" variant="outline">
                    Share one of your prompts
                  </LinkButton>
                  <LinkButton to="/scenarios-cookbook">Open the cookbook</LinkButton>
                </>
              }
            >
              Prompts and scenarios appear here once curators publish them. Share a prompt from your
              library to suggest it for publishing.
            </EmptyState>
          )
        ) : (
          <>
            <p aria-live="polite" className="text-sm text-muted-foreground">
              {countText(items.length, discover.hasNextPage)}
            </p>
            <ul
              aria-label="Results"
              aria-busy={discover.isPlaceholderData}
              className="grid gap-4 md:grid-cols-2"
            >
              {items.map(card)}
            </ul>
            {discover.isFetchNextPageError ? (
              <p role="alert" className="text-sm text-destructive">
                More results could not be loaded: {errorMessage(discover.error)}
              </p>
            ) : null}
            {discover.hasNextPage ? (
              <div className="flex justify-center">
                <Button
                  variant="outline"
                  disabled={discover.isFetchingNextPage}
                  onClick={() => void discover.fetchNextPage()}
                >
                  {discover.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </div>
  );
};
