import { useQuery } from '@tanstack/react-query';
import { Database, Library, MessageSquare, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { KnowledgeBase } from '@chorus/shared/api/knowledge';
import { formatBytes } from '@chorus/shared/bytes';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { helpLinks } from '@/lib/help-links';
import { knowledgeBasesQueryOptions } from '@/lib/queries/knowledge-bases';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { progressPollMs } from '../api/documents';
import { useDeleteKnowledgeBase } from '../api/knowledge-bases';
import { DocumentsPanel, ProgressBar } from './documents-panel';
import { choiceLabel, choiceOf } from './embedding-choice';
import { KnowledgeBaseDialog } from './knowledge-base-dialog';
import { RetrievalInspector } from './retrieval-inspector';

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

const countsOf = (base: KnowledgeBase) =>
  `${plural(base.document_count, 'document', 'documents')} · ${plural(base.chunk_count, 'passage', 'passages')} · ${formatBytes(base.size_bytes)}`;

const ModeBadge = ({ base }: { base: KnowledgeBase }) => (
  <span
    className={cn(
      'rounded-full border px-2 py-0.5 text-xs',
      base.search_mode === 'hybrid'
        ? 'border-primary/40 bg-primary/5 text-primary'
        : 'text-muted-foreground',
    )}
  >
    {base.search_mode === 'hybrid' ? 'Hybrid search' : 'Full text only'}
  </span>
);

const BaseList = ({
  bases,
  selectedId,
  onSelect,
}: {
  bases: KnowledgeBase[];
  selectedId: string;
  onSelect: (id: string) => void;
}) => (
  <nav aria-label="Your knowledge bases">
    <ul className="grid gap-2">
      {bases.map((base) => {
        const selected = base.id === selectedId;
        return (
          <li key={base.id}>
            <button
              type="button"
              aria-current={selected ? 'true' : undefined}
              onClick={() => onSelect(base.id)}
              className={cn(
                'grid w-full gap-1 rounded-lg border p-3 text-left transition-colors hover:bg-muted/60',
                selected && 'border-primary bg-primary/5',
              )}
            >
              <span className="flex items-center gap-2">
                <Library aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                <span className="min-w-0 truncate font-medium">{base.name}</span>
              </span>
              <span className="text-xs text-muted-foreground">{countsOf(base)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  </nav>
);

const BaseDetail = ({
  base,
  bases,
  onEdit,
  onDelete,
}: {
  base: KnowledgeBase;
  bases: KnowledgeBase[];
  onEdit: () => void;
  onDelete: () => void;
}) => (
  <section aria-label={base.name} className="grid min-w-0 gap-6">
    <div className="grid gap-2 rounded-xl border bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold">
            <span className="break-words">{base.name}</span>
            <ModeBadge base={base} />
          </h2>
          {base.description ? (
            <p className="mt-1 text-sm whitespace-pre-wrap text-muted-foreground">
              {base.description}
            </p>
          ) : null}
        </div>
        <div className="flex gap-2">
          <LinkButton to="/chat" variant="outline" size="sm">
            <MessageSquare aria-hidden="true" /> Use in a chat
          </LinkButton>
          <Button variant="outline" size="sm" onClick={onEdit}>
            <Pencil aria-hidden="true" /> Edit
          </Button>
          <Button variant="outline" size="sm" onClick={onDelete}>
            <Trash2 aria-hidden="true" /> Delete
          </Button>
        </div>
      </div>
      <p className="text-xs text-muted-foreground">
        {countsOf(base)} · Embedding model: {choiceLabel(choiceOf(base))}
      </p>
      {base.search_notice ? (
        <p
          role="note"
          className="rounded-md border border-amber-500/40 bg-amber-500/10 p-2 text-sm"
          data-testid="search-notice"
        >
          {base.search_notice}
        </p>
      ) : null}
      {base.reembedding ? (
        <div className="grid gap-1 rounded-md border p-2">
          <p className="text-sm">
            Embedding again with {choiceLabel(base.reembedding)}. Search uses the current vectors
            until this is done.
          </p>
          <ProgressBar
            done={base.reembedding.embedded}
            total={base.reembedding.total}
            label={`Re-embedding ${base.name}`}
          />
        </div>
      ) : null}
    </div>
    <DocumentsPanel key={base.id} base={base} />
    <RetrievalInspector key={`inspector:${base.id}`} bases={bases} selectedId={base.id} />
  </section>
);

/**
 * The knowledge base: the user's collections of documents; the chosen one's documents (upload,
 * live progress, retry, delete), how it is searched, and the retrieval inspector.
 */
export const KnowledgeBasePage = () => {
  const list = useQuery({
    ...knowledgeBasesQueryOptions(),
    // A re-embed's progress lives on the base itself.
    refetchInterval: (query) =>
      query.state.data?.knowledge_bases.some((base) => base.reembedding !== null)
        ? progressPollMs
        : false,
  });
  const [searchParams, setSearchParams] = useSearchParams();
  const [editing, setEditing] = useState<{ base: KnowledgeBase | null } | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeBase | null>(null);
  const remove = useDeleteKnowledgeBase();

  const bases = list.data?.knowledge_bases ?? [];
  const wanted = searchParams.get('base');
  const selected = bases.find((base) => base.id === wanted) ?? bases[0];
  const select = (id: string) => setSearchParams({ base: id }, { replace: true });
  const openNew = () => setEditing({ base: null });

  let body;
  if (list.isPending) body = <TableLoading label="Loading your knowledge bases" />;
  else if (list.isError) body = <TableLoadError what="Your knowledge bases" error={list.error} />;
  else if (!selected) {
    body = (
      <EmptyState
        icon={Library}
        title="No knowledge bases yet"
        action={
          <>
            <Button onClick={openNew}>
              <Plus aria-hidden="true" /> New knowledge base
            </Button>
            <LinkButton to={helpLinks.knowledgeBase} variant="outline">
              How the knowledge base works
            </LinkButton>
          </>
        }
      >
        A knowledge base holds documents (PDF, Word, Markdown, HTML, text, CSV, JSON). Create one,
        upload your files, then attach it to a chat with the Knowledge button under the message box:
        replies search it and cite the passages they drew on.
      </EmptyState>
    );
  } else {
    body = (
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <BaseList bases={bases} selectedId={selected.id} onSelect={select} />
        <BaseDetail
          base={selected}
          bases={bases}
          onEdit={() => setEditing({ base: selected })}
          onDelete={() => setDeleting(selected)}
        />
      </div>
    );
  }

  return (
    <div>
      <PageHeader
        title="Knowledge base"
        description={
          <>
            Documents you add here become sources your chats can search and cite, passage by
            passage.{' '}
            <Link
              to={helpLinks.knowledgeBase}
              className="text-primary underline underline-offset-4"
            >
              How it works
            </Link>
          </>
        }
        actions={
          <Button onClick={openNew}>
            <Plus aria-hidden="true" /> New knowledge base
          </Button>
        }
      />
      {list.data && !list.data.vectors_available ? (
        <p
          role="note"
          className="mb-6 flex items-start gap-2 rounded-md border border-amber-500/40 bg-amber-500/10 p-3 text-sm"
        >
          <Database aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          This server’s database has no vector support, so every knowledge base is searched by its
          words alone (full text). Answers still cite their sources.
        </p>
      ) : null}
      {body}
      <KnowledgeBaseDialog
        open={editing !== null}
        base={editing?.base ?? null}
        vectorsAvailable={list.data?.vectors_available ?? true}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          select(saved.id);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete knowledge base"
        destructive
        onConfirm={() => {
          const base = deleting;
          setDeleting(null);
          if (!base) return;
          remove.mutate(base.id, {
            onSuccess: () => {
              toast.success(`“${base.name}” deleted`);
              setSearchParams({}, { replace: true });
            },
            onError: (error) =>
              toast.error(`Could not delete “${base.name}”`, {
                description: errorMessage(error),
              }),
          });
        }}
        onCancel={() => setDeleting(null)}
      >
        Its {plural(deleting?.document_count ?? 0, 'document', 'documents')}, their passages and
        their files are deleted. Chats that use it stop searching it.
      </ConfirmDialog>
    </div>
  );
};
