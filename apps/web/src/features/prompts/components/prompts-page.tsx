import {
  Copy,
  Download,
  History,
  MessageSquare,
  Pencil,
  Plus,
  ScrollText,
  Search,
  Share2,
  Star,
  Trash2,
  Upload,
} from 'lucide-react';
import { useDeferredValue, useEffect, useRef, useState, type ChangeEvent } from 'react';
import type { LibraryPrompt } from '@chorus/shared/api/library';
import type { Prompt, PromptImportResult } from '@chorus/shared/api/prompts';
import { PromptFillDialog } from '@/components/prompts/prompt-fill-dialog';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { SearchInput } from '@/components/ui/search-input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-error';
import { copyText } from '@/lib/clipboard';
import { formatDate } from '@/lib/format';
import { helpLinks } from '@/lib/help-links';
import {
  exportPrompts,
  useCopyLibraryPrompt,
  useDeletePrompt,
  useImportPrompts,
  useLibraryPrompts,
  usePrompts,
  useSharePrompt,
  useUpdatePrompt,
  type PromptFilter,
} from '@/lib/queries/prompts';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { PromptEditorDialog } from './prompt-editor-dialog';
import { PromptVersionsDialog } from './prompt-versions-dialog';

const sharingLabel: Record<Prompt['sharing'], string | null> = {
  private: null,
  submitted: 'Waiting for review',
  published: 'In the public library',
};

const usage = (prompt: Prompt) =>
  prompt.use_count === 0
    ? 'Not used yet'
    : `Used ${prompt.use_count.toLocaleString('en')} ${prompt.use_count === 1 ? 'time' : 'times'}${
        prompt.last_used_at ? `, last on ${formatDate(prompt.last_used_at)}` : ''
      }`;

type CardActions = {
  onEdit: (prompt: Prompt) => void;
  onVersions: (prompt: Prompt) => void;
  onFill: (prompt: Prompt) => void;
  onDelete: (prompt: Prompt) => void;
};

const PromptCard = ({ prompt, actions }: { prompt: Prompt; actions: CardActions }) => {
  const update = useUpdatePrompt();
  const share = useSharePrompt();
  const shared = prompt.sharing !== 'private';
  const badge = sharingLabel[prompt.sharing];
  return (
    <li
      aria-label={prompt.title}
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm lg:grid-cols-[1fr_auto]"
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <Button
            variant="ghost"
            size="icon"
            className="-ml-2 size-8"
            aria-pressed={prompt.favorite}
            aria-label={prompt.favorite ? 'Remove from favourites' : 'Add to favourites'}
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: prompt.id, patch: { favorite: !prompt.favorite } },
                {
                  onError: (error) =>
                    toast.error('Could not change the favourite', {
                      description: errorMessage(error),
                    }),
                },
              )
            }
          >
            <Star
              aria-hidden="true"
              className={cn(prompt.favorite && 'fill-amber-400 text-amber-500')}
            />
          </Button>
          <h3 className="font-medium break-words">{prompt.title}</h3>
          {prompt.category ? (
            <span className="rounded bg-muted px-1.5 py-0.5 text-xs">{prompt.category}</span>
          ) : null}
          {badge ? (
            <span className="rounded border px-1.5 py-0.5 text-xs text-muted-foreground">
              {badge}
            </span>
          ) : null}
        </div>
        {prompt.description ? (
          <p className="mt-1 text-sm text-muted-foreground">{prompt.description}</p>
        ) : null}
        <p className="mt-2 line-clamp-3 text-sm break-words whitespace-pre-wrap">
          {prompt.content}
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
          {prompt.variables.map((v) => (
            <code key={v.name} className="rounded bg-muted px-1.5 py-0.5">
              {`{{${v.name}}}`}
            </code>
          ))}
          {prompt.tags.map((tag) => (
            <span key={tag} className="rounded-full border px-2 py-0.5">
              #{tag}
            </span>
          ))}
        </div>
        <p className="mt-2 text-xs text-muted-foreground">
          <span data-testid="prompt-usage">{usage(prompt)}</span> · version {prompt.version} ·
          changed {formatDate(prompt.updated_at)}
        </p>
      </div>
      <div className="flex flex-wrap content-start items-start gap-2 lg:max-w-72 lg:justify-end">
        <LinkButton to={`/chat?prompt=${encodeURIComponent(prompt.id)}`} size="sm">
          <MessageSquare aria-hidden="true" /> Use in chat
        </LinkButton>
        <Button variant="outline" size="sm" onClick={() => actions.onFill(prompt)}>
          <Copy aria-hidden="true" /> Fill in and copy
        </Button>
        <Button variant="outline" size="sm" onClick={() => actions.onEdit(prompt)}>
          <Pencil aria-hidden="true" /> Edit
        </Button>
        <Button variant="outline" size="sm" onClick={() => actions.onVersions(prompt)}>
          <History aria-hidden="true" /> Versions
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={share.isPending}
          onClick={() =>
            share.mutate(
              { id: prompt.id, share: !shared },
              {
                onSuccess: () =>
                  toast.success(
                    shared
                      ? `“${prompt.title}” is private again`
                      : `“${prompt.title}” was sent for review; it appears in the public library once an admin approves it`,
                  ),
                onError: (error) =>
                  toast.error('Could not change the sharing', {
                    description: errorMessage(error),
                  }),
              },
            )
          }
        >
          <Share2 aria-hidden="true" /> {shared ? 'Make private' : 'Submit to library'}
        </Button>
        <Button variant="outline" size="sm" onClick={() => actions.onDelete(prompt)}>
          <Trash2 aria-hidden="true" /> Delete
        </Button>
      </div>
    </li>
  );
};

const emptyFilter: PromptFilter = { search: '', category: '', favorite: false };

const YourPrompts = ({
  onNew,
  onEdit,
  onCategories,
}: {
  onNew: () => void;
  onEdit: (prompt: Prompt) => void;
  onCategories: (categories: string[]) => void;
}) => {
  const [filter, setFilter] = useState<PromptFilter>(emptyFilter);
  const search = useDeferredValue(filter.search);
  const list = usePrompts({ ...filter, search });
  const remove = useDeletePrompt();
  const [versionsOf, setVersionsOf] = useState<Prompt | null>(null);
  const [filling, setFilling] = useState<Prompt | null>(null);
  const [deleting, setDeleting] = useState<Prompt | null>(null);
  const prompts = list.data?.pages.flatMap((page) => page.items) ?? [];
  const categories = list.data?.pages[0]?.categories ?? [];
  const filtered = filter.search !== '' || filter.category !== '' || filter.favorite;
  const categoryList = categories.join('\n');
  useEffect(() => {
    onCategories(categoryList ? categoryList.split('\n') : []);
  }, [categoryList, onCategories]);

  const actions: CardActions = {
    onEdit,
    onVersions: setVersionsOf,
    onDelete: setDeleting,
    onFill: (prompt) => {
      if (prompt.variables.length > 0) setFilling(prompt);
      else
        void copyText(prompt.content).then((ok) =>
          ok ? toast.success('Prompt copied') : toast.error('Could not copy the prompt'),
        );
    },
  };

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <SearchInput
          label="Search your prompts"
          placeholder="Search title, text or tags"
          value={filter.search}
          onChange={(event) => setFilter({ ...filter, search: event.target.value })}
        />
        <NativeSelect
          className="w-44"
          aria-label="Category"
          value={filter.category}
          onChange={(event) => setFilter({ ...filter, category: event.target.value })}
        >
          <option value="">All categories</option>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </NativeSelect>
        <Button
          variant="outline"
          aria-pressed={filter.favorite}
          onClick={() => setFilter({ ...filter, favorite: !filter.favorite })}
        >
          <Star
            aria-hidden="true"
            className={cn(filter.favorite && 'fill-amber-400 text-amber-500')}
          />
          Favourites only
        </Button>
      </div>
      {list.isPending ? (
        <TableLoading label="Loading your prompts" />
      ) : list.isError ? (
        <TableLoadError what="Your prompts" error={list.error} />
      ) : prompts.length === 0 ? (
        filtered ? (
          <EmptyState icon={Search} title="No prompt matches">
            Nothing matches this search or filter. Clear it to see all your prompts.
          </EmptyState>
        ) : (
          <EmptyState
            icon={ScrollText}
            title="No prompts saved yet"
            action={
              <>
                <Button onClick={onNew}>
                  <Plus aria-hidden="true" /> New prompt
                </Button>
                <LinkButton to={helpLinks.prompts} variant="outline">
                  How prompts work
                </LinkButton>
              </>
            }
          >
            Save the prompts you reuse, with <code>{'{{variables}}'}</code> to fill in each time.
            Type <kbd className="rounded border px-1 font-sans">/</kbd> in the chat to insert one.
            Or copy one from the public library tab above.
          </EmptyState>
        )
      ) : (
        <>
          <ul className="grid gap-3" aria-label="Your prompts">
            {prompts.map((prompt) => (
              <PromptCard key={prompt.id} prompt={prompt} actions={actions} />
            ))}
          </ul>
          {list.hasNextPage ? (
            <Button
              variant="outline"
              className="justify-self-center"
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </Button>
          ) : null}
        </>
      )}
      <PromptVersionsDialog prompt={versionsOf} onClose={() => setVersionsOf(null)} />
      <PromptFillDialog
        prompt={filling}
        submitLabel="Copy"
        onClose={() => setFilling(null)}
        onFilled={(rendered) => {
          setFilling(null);
          void copyText(rendered.content).then((ok) =>
            ok ? toast.success('Filled prompt copied') : toast.error('Could not copy the prompt'),
          );
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.title ?? ''}”?`}
        confirmLabel="Delete prompt"
        destructive
        onConfirm={() => {
          const prompt = deleting;
          setDeleting(null);
          if (!prompt) return;
          remove.mutate(prompt.id, {
            onSuccess: () => toast.success(`“${prompt.title}” deleted`),
            onError: (error) =>
              toast.error(`Could not delete “${prompt.title}”`, {
                description: errorMessage(error),
              }),
          });
        }}
        onCancel={() => setDeleting(null)}
      >
        Its versions go with it. A copy in the public library, if it was approved, is removed too.
      </ConfirmDialog>
    </div>
  );
};

const PublicLibrary = () => {
  const library = useLibraryPrompts(true);
  const copy = useCopyLibraryPrompt();
  const [search, setSearch] = useState('');
  const words = search.trim().toLowerCase();
  const items = (library.data?.items ?? []).filter(
    (p: LibraryPrompt) =>
      !words ||
      [p.title, p.description, p.content, p.category, ...p.tags].some((t) =>
        t.toLowerCase().includes(words),
      ),
  );
  return (
    <div className="grid gap-4">
      <SearchInput
        label="Search the public library"
        placeholder="Search the public library"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {library.isPending ? (
        <TableLoading label="Loading the public library" />
      ) : library.isError ? (
        <TableLoadError what="The public library" error={library.error} />
      ) : items.length === 0 ? (
        <EmptyState icon={ScrollText} title="Nothing in the public library yet">
          {words
            ? 'Nothing matches this search.'
            : 'Prompts that users submit appear here once an admin approves them. Submit one of yours with “Submit to library”.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-3" aria-label="Public prompts">
          {items.map((prompt) => (
            <li
              key={prompt.id}
              aria-label={prompt.title}
              className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm md:grid-cols-[1fr_auto]"
            >
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  {prompt.featured ? (
                    <Star aria-label="Featured" className="size-4 fill-amber-400 text-amber-500" />
                  ) : null}
                  {prompt.title}
                  <span className="rounded bg-muted px-1.5 py-0.5 text-xs font-normal">
                    {prompt.category}
                  </span>
                </p>
                {prompt.description ? (
                  <p className="mt-1 text-sm text-muted-foreground">{prompt.description}</p>
                ) : null}
                <p className="mt-2 line-clamp-3 text-sm break-words whitespace-pre-wrap">
                  {prompt.content}
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={copy.isPending}
                onClick={() =>
                  copy.mutate(prompt.id, {
                    onSuccess: () => toast.success(`“${prompt.title}” copied to your prompts`),
                    onError: (error) =>
                      toast.error('Could not copy the prompt', {
                        description: errorMessage(error),
                      }),
                  })
                }
              >
                <Copy aria-hidden="true" /> Copy to my prompts
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};

const ImportResult = ({
  result,
  onClose,
}: {
  result: PromptImportResult | null;
  onClose: () => void;
}) => (
  <Dialog open={result !== null} title="Import finished" onClose={onClose} className="max-w-xl">
    {result ? (
      <div className="grid gap-3">
        <p className="text-sm">
          {result.imported === 1 ? '1 prompt imported.' : `${result.imported} prompts imported.`}{' '}
          {result.refused.length === 0
            ? 'Every row was accepted.'
            : `${result.refused.length} ${result.refused.length === 1 ? 'row was' : 'rows were'} refused:`}
        </p>
        {result.refused.length > 0 ? (
          <ul aria-label="Refused rows" className="grid max-h-72 gap-2 overflow-auto text-sm">
            {result.refused.map((row) => (
              <li key={row.row} className="rounded-md border p-2">
                <span className="font-medium">
                  Row {row.row}
                  {row.title ? ` (“${row.title}”)` : ''}:
                </span>{' '}
                {row.reasons.join(' ')}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="flex justify-end">
          <Button onClick={onClose}>Close</Button>
        </div>
      </div>
    ) : null}
  </Dialog>
);

/** Reads the chosen file as JSON; a file that is not JSON is said plainly. */
const readJson = async (file: File): Promise<unknown> => {
  const text = await file.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`“${file.name}” is not a JSON file. Import a file exported from Chorus.`);
  }
};

/**
 * The prompt library: the user's own prompts (search, category, favourites, variables, versions,
 * sharing, import and export) and the public library to copy from.
 */
export const PromptsPage = () => {
  const [editing, setEditing] = useState<{ prompt: Prompt | null } | null>(null);
  const [categories, setCategories] = useState<string[]>([]);
  const [imported, setImported] = useState<PromptImportResult | null>(null);
  const importer = useImportPrompts();
  const fileInput = useRef<HTMLInputElement>(null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    try {
      setImported(await importer.mutateAsync(await readJson(file)));
    } catch (error) {
      toast.error('Could not import the prompts', { description: errorMessage(error) });
    }
  };

  return (
    <div>
      <PageHeader
        title="Prompt library"
        description="Keep the prompts you reuse, with {{variables}} filled in each time. Type / in the chat to insert one; every save keeps a version."
        actions={
          <>
            <Button variant="outline" onClick={() => fileInput.current?.click()}>
              <Upload aria-hidden="true" /> Import
            </Button>
            <input
              ref={fileInput}
              type="file"
              accept="application/json,.json"
              className="sr-only"
              tabIndex={-1}
              aria-label="Prompt export file to import"
              onChange={(event) => void onFile(event)}
            />
            <Button
              variant="outline"
              onClick={() =>
                void exportPrompts().then(
                  (name) => toast.success(`Saved ${name}`),
                  (error: unknown) =>
                    toast.error('Could not export the prompts', {
                      description: errorMessage(error),
                    }),
                )
              }
            >
              <Download aria-hidden="true" /> Export
            </Button>
            <Button onClick={() => setEditing({ prompt: null })}>
              <Plus aria-hidden="true" /> New prompt
            </Button>
          </>
        }
      />
      <Tabs defaultValue="mine">
        <TabsList className="max-w-md">
          <TabsTrigger value="mine">Your prompts</TabsTrigger>
          <TabsTrigger value="library">Public library</TabsTrigger>
        </TabsList>
        <TabsContent value="mine">
          <YourPrompts
            onNew={() => setEditing({ prompt: null })}
            onEdit={(prompt) => setEditing({ prompt })}
            onCategories={setCategories}
          />
        </TabsContent>
        <TabsContent value="library">
          <PublicLibrary />
        </TabsContent>
      </Tabs>
      <PromptEditorDialog
        open={editing !== null}
        prompt={editing?.prompt ?? null}
        categories={categories}
        onClose={() => setEditing(null)}
      />
      <ImportResult result={imported} onClose={() => setImported(null)} />
    </div>
  );
};
