import { Plus, ScrollText, Star } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { toast } from 'sonner';
import type { AdminPrompt, AdminScenario, LibraryKind } from '@chorus/shared/api/library';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { SearchInput } from '@/components/ui/search-input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-error';
import { useCurateLibraryEntry } from '../api/curate-library-entry';
import { useDeleteLibraryEntry } from '../api/delete-library-entry';
import { useAdminLibrary, type AdminLibraryFilter } from '../api/get-admin-library';
import { AdminPromptsForm } from './admin-prompts-form';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { formatDate } from '@/lib/format';

type Entry = AdminPrompt | AdminScenario;

const preview = (entry: Entry) =>
  'content' in entry ? entry.content : entry.steps.map((s, i) => `${i + 1}. ${s}`).join('  ');

const Collection = ({ kind }: { kind: LibraryKind }) => {
  const [filter, setFilter] = useState<AdminLibraryFilter>({ status: 'all', search: '' });
  const deferredSearch = useDeferredValue(filter.search);
  const list = useAdminLibrary(kind, { ...filter, search: deferredSearch });
  const curate = useCurateLibraryEntry();
  const remove = useDeleteLibraryEntry();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Entry | null>(null);
  const noun = kind === 'prompts' ? 'prompt' : 'scenario';

  const change = (entry: Entry, patch: { published?: boolean; featured?: boolean }, done: string) =>
    curate.mutate(
      { kind, id: entry.id, patch },
      {
        onSuccess: () => toast.success(`“${entry.title}” ${done}`),
        onError: (error) =>
          toast.error(`Could not change “${entry.title}”`, { description: errorMessage(error) }),
      },
    );

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          label={`Search ${kind}`}
          className="max-w-xs"
          placeholder="Search title or description"
          value={filter.search}
          onChange={(event) => setFilter({ ...filter, search: event.target.value })}
        />
        <NativeSelect
          className="w-44"
          aria-label="Show"
          value={filter.status}
          onChange={(event) =>
            setFilter({ ...filter, status: event.target.value as AdminLibraryFilter['status'] })
          }
        >
          <option value="all">All shared</option>
          <option value="published">Published</option>
          <option value="unpublished">Not published</option>
          <option value="featured">Featured</option>
        </NativeSelect>
        {adding ? null : (
          <Button className="ml-auto" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" /> Add a {noun}
          </Button>
        )}
      </div>
      {adding ? <AdminPromptsForm kind={kind} onDone={() => setAdding(false)} /> : null}
      {list.isPending ? (
        <TableLoading label={`Loading ${kind}`} />
      ) : list.isError ? (
        <TableLoadError what={`The ${kind}`} error={list.error} />
      ) : list.data.items.length === 0 ? (
        <EmptyState icon={ScrollText} title={`No ${kind} to curate`}>
          {filter.search || filter.status !== 'all'
            ? 'Nothing matches this filter. Clear the search or show all shared entries.'
            : `Entries appear here when authors share a ${noun} or an admin adds one. Add one with the button above; published entries show in the public ${kind === 'prompts' ? 'prompt library' : 'scenarios cookbook'}, featured ones first.`}
        </EmptyState>
      ) : (
        <ul className="grid gap-3" aria-label={kind === 'prompts' ? 'Prompts' : 'Scenarios'}>
          {(list.data.items as Entry[]).map((entry) => (
            <li
              key={entry.id}
              aria-label={entry.title}
              className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm md:grid-cols-[1fr_auto]"
            >
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {entry.featured ? (
                    <Star aria-label="Featured" className="size-4 fill-amber-400 text-amber-500" />
                  ) : null}
                  {entry.title}
                  <span className="rounded bg-muted px-1.5 py-0.5 text-xs font-normal">
                    {entry.published ? 'Published' : 'Not published'}
                  </span>
                  <span className="text-xs font-normal text-muted-foreground">
                    {entry.category}
                  </span>
                </p>
                {entry.description ? (
                  <p className="mt-1 text-sm text-muted-foreground">{entry.description}</p>
                ) : null}
                <p className="mt-1 line-clamp-2 text-sm break-words whitespace-pre-wrap">
                  {preview(entry)}
                </p>
                <p className="mt-1 text-xs text-muted-foreground">
                  By {entry.author_email ?? 'a removed account'} · {formatDate(entry.updated_at)}
                </p>
              </div>
              <div className="flex flex-wrap items-start gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={curate.isPending}
                  onClick={() =>
                    entry.published
                      ? change(entry, { published: false }, 'unpublished')
                      : change(entry, { published: true }, 'published')
                  }
                >
                  {entry.published ? 'Unpublish' : 'Publish'}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={curate.isPending}
                  onClick={() =>
                    entry.featured
                      ? change(entry, { featured: false }, 'is no longer featured')
                      : change(entry, { featured: true }, 'is featured')
                  }
                >
                  {entry.featured ? 'Unfeature' : 'Feature'}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={remove.isPending}
                  onClick={() => setDeleting(entry)}
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.title ?? ''}”?`}
        confirmLabel={`Delete ${noun}`}
        destructive
        onConfirm={() => {
          const entry = deleting;
          setDeleting(null);
          if (!entry) return;
          remove.mutate(
            { kind, id: entry.id },
            {
              onSuccess: () => toast.success(`“${entry.title}” deleted`),
              onError: (error) =>
                toast.error(`Could not delete “${entry.title}”`, {
                  description: errorMessage(error),
                }),
            },
          );
        }}
        onCancel={() => setDeleting(null)}
      >
        It is removed for its author too. To only hide it from the public library, unpublish it
        instead.
      </ConfirmDialog>
    </div>
  );
};

export const AdminPromptsPage = () => (
  <div>
    <PageHeader
      title="Prompts management"
      description="Curate the public prompt library and the scenarios cookbook: publish, unpublish and feature what authors shared, or add entries yourself. Every change is written to the audit log."
    />
    <Tabs defaultValue="prompts">
      <TabsList className="max-w-md">
        <TabsTrigger value="prompts">Prompt library</TabsTrigger>
        <TabsTrigger value="scenarios">Scenarios cookbook</TabsTrigger>
      </TabsList>
      <TabsContent value="prompts">
        <Collection kind="prompts" />
      </TabsContent>
      <TabsContent value="scenarios">
        <Collection kind="scenarios" />
      </TabsContent>
    </Tabs>
  </div>
);
