import { useQueryClient } from '@tanstack/react-query';
import {
  AlertTriangle,
  CheckCircle2,
  Copy,
  FileText,
  RefreshCw,
  Trash2,
  Upload,
  X,
} from 'lucide-react';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import {
  knowledgeExtensions,
  knowledgeLimits,
  knowledgeTypesLabel,
  type KnowledgeBase,
  type KnowledgeDocument,
  type UploadOutcome,
} from '@chorus/shared/api/knowledge';
import { formatBytes } from '@chorus/shared/bytes';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { knowledgeBasesQueryOptions } from '@/lib/queries/knowledge-bases';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import {
  isProcessing,
  useDeleteDocument,
  useDocuments,
  useRetryDocument,
  useUploadDocuments,
} from '../api/documents';

/** The file input's `accept`: the extensions a knowledge base reads. */
export const documentAccept = knowledgeExtensions.join(',');

const statusLabel: Record<KnowledgeDocument['status'], string> = {
  queued: 'Queued',
  parsing: 'Reading',
  embedding: 'Embedding',
  ready: 'Ready',
  failed: 'Failed',
};

const statusClass: Record<KnowledgeDocument['status'], string> = {
  queued: 'border-border text-muted-foreground',
  parsing: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  embedding: 'border-sky-500/40 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  ready: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  failed: 'border-destructive/40 bg-destructive/10 text-destructive',
};

export const StatusBadge = ({ status }: { status: KnowledgeDocument['status'] }) => (
  <span
    data-testid="document-status"
    className={cn('rounded-full border px-2 py-0.5 text-xs font-medium', statusClass[status])}
  >
    {statusLabel[status]}
  </span>
);

/** "12 of 40 chunks embedded", with a bar. */
export const ProgressBar = ({
  done,
  total,
  label,
  unit = 'chunks embedded',
}: {
  done: number;
  total: number;
  label: string;
  unit?: string;
}) => {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  return (
    <div className="grid gap-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(done, total)}
        className="h-1.5 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full bg-primary transition-[width]"
          style={{ width: `${share * 100}%` }}
        />
      </div>
      <p className="text-xs text-muted-foreground tabular-nums">
        {done.toLocaleString()} of {total.toLocaleString()} {unit}
      </p>
    </div>
  );
};

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toUpperCase() : null;
};

const detailsOf = (document: KnowledgeDocument) =>
  [
    extensionOf(document.name),
    formatBytes(document.size_bytes),
    document.pages === null ? null : `${document.pages} ${document.pages === 1 ? 'page' : 'pages'}`,
    document.status === 'ready'
      ? `${document.chunk_count} ${document.chunk_count === 1 ? 'passage' : 'passages'}`
      : null,
    `added ${formatDate(document.created_at)}`,
  ]
    .filter(Boolean)
    .join(' · ');

const DocumentRow = ({
  document,
  onDelete,
  onRetry,
  retrying,
}: {
  document: KnowledgeDocument;
  onDelete: () => void;
  onRetry: () => void;
  retrying: boolean;
}) => (
  <li
    aria-label={document.name}
    data-status={document.status}
    className="grid gap-2 rounded-lg border bg-card p-3 sm:grid-cols-[1fr_auto]"
  >
    <div className="grid min-w-0 gap-1.5">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <FileText aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
        <span className="min-w-0 truncate font-medium">{document.name}</span>
        <StatusBadge status={document.status} />
      </div>
      <p className="text-xs text-muted-foreground">{detailsOf(document)}</p>
      {document.status === 'queued' ? (
        <p className="text-xs text-muted-foreground">Waiting its turn to be read.</p>
      ) : null}
      {document.status === 'parsing' ? (
        <p className="text-xs text-muted-foreground">
          Reading the text and splitting it into passages…
        </p>
      ) : null}
      {document.status === 'embedding' ? (
        <ProgressBar
          done={document.embedded_count}
          total={document.chunk_count}
          label={`Embedding ${document.name}`}
        />
      ) : null}
      {document.status === 'failed' ? (
        <p role="alert" className="flex items-start gap-1.5 text-sm text-destructive">
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{document.error ?? 'It could not be read.'}</span>
        </p>
      ) : null}
    </div>
    <div className="flex items-start gap-2">
      {document.status === 'failed' ? (
        <Button variant="outline" size="sm" disabled={retrying} onClick={onRetry}>
          <RefreshCw aria-hidden="true" /> Retry
        </Button>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        aria-label={`Delete ${document.name}`}
        title="Delete"
        onClick={onDelete}
      >
        <Trash2 aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Delete</span>
      </Button>
    </div>
  </li>
);

const outcomeText = (outcome: UploadOutcome) => {
  switch (outcome.outcome) {
    case 'queued':
      return 'Added: it is being read now.';
    case 'duplicate':
      return 'Already in this knowledge base (the same file), so not added again.';
    case 'refused':
      return outcome.message;
  }
};

/** What became of each file of the last upload: added, already there, or refused and why. */
export const UploadOutcomes = ({
  outcomes,
  error,
  onDismiss,
}: {
  outcomes: UploadOutcome[];
  error: string | null;
  onDismiss: () => void;
}) => (
  <section aria-label="Upload results" className="grid gap-2 rounded-lg border bg-muted/30 p-3">
    <div className="flex items-center justify-between gap-2">
      <h4 className="text-sm font-medium">Upload results</h4>
      <Button
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label="Dismiss the upload results"
        onClick={onDismiss}
      >
        <X />
      </Button>
    </div>
    {error ? (
      <p role="alert" className="text-sm text-destructive">
        Nothing was added: {error}
      </p>
    ) : null}
    {outcomes.length > 0 ? (
      <ul className="grid gap-1 text-sm">
        {outcomes.map((outcome, index) => (
          <li
            key={`${index}:${outcome.name}`}
            data-outcome={outcome.outcome}
            className="flex items-start gap-2"
          >
            {outcome.outcome === 'queued' ? (
              <CheckCircle2
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 text-emerald-600"
              />
            ) : outcome.outcome === 'duplicate' ? (
              <Copy aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            ) : (
              <AlertTriangle
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 text-destructive"
              />
            )}
            <span className="min-w-0">
              <span className="font-medium break-all">{outcome.name}</span>:{' '}
              <span className={cn(outcome.outcome === 'refused' && 'text-destructive')}>
                {outcomeText(outcome)}
              </span>
            </span>
          </li>
        ))}
      </ul>
    ) : null}
  </section>
);

const batches = <T,>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += size) out.push(items.slice(at, at + size));
  return out;
};

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/**
 * A knowledge base's documents: upload (button or drop), each one's status while it is read and
 * embedded (asked for every second until all have settled), why one failed, retry and delete.
 */
export const DocumentsPanel = ({ base }: { base: KnowledgeBase }) => {
  const queryClient = useQueryClient();
  const documents = useDocuments(base.id, base.reembedding !== null);
  const upload = useUploadDocuments(base.id);
  const remove = useDeleteDocument(base.id);
  const retry = useRetryDocument(base.id);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [results, setResults] = useState<{
    outcomes: UploadOutcome[];
    error: string | null;
  } | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeDocument | null>(null);

  const list = documents.data?.documents ?? [];
  const processing = list.filter(isProcessing).length;
  // Each document that settles changes the base's own counts (documents, passages, size).
  const lastProcessing = useRef(processing);
  useEffect(() => {
    const settled = processing < lastProcessing.current;
    lastProcessing.current = processing;
    if (settled) {
      void queryClient.invalidateQueries({ queryKey: knowledgeBasesQueryOptions().queryKey });
    }
  }, [processing, queryClient]);

  const send = async (files: File[]) => {
    if (files.length === 0) return;
    const outcomes: UploadOutcome[] = [];
    let error: string | null = null;
    for (const batch of batches(files, knowledgeLimits.filesPerUpload)) {
      try {
        outcomes.push(...(await upload.mutateAsync(batch)).files);
      } catch (cause) {
        error = errorMessage(cause);
      }
    }
    setResults({ outcomes, error });
    const added = outcomes.filter((o) => o.outcome === 'queued').length;
    const refused = outcomes.filter((o) => o.outcome === 'refused').length;
    if (error && outcomes.length === 0) {
      toast.error('No file was added', { description: error });
    } else if (refused > 0) {
      toast.warning(`${added} added, ${refused} refused: see the upload results for the reasons`);
    } else if (added > 0) {
      toast.success(added === 1 ? '1 file added' : `${added} files added`);
    }
  };

  return (
    <section
      aria-label="Documents"
      className={cn(
        'grid gap-3 rounded-xl border border-transparent p-1 transition-colors',
        dragging && 'border-dashed border-primary bg-primary/5',
      )}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        void send([...event.dataTransfer.files]);
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold">Documents</h3>
        <Button disabled={upload.isPending} onClick={() => fileInput.current?.click()}>
          <Upload aria-hidden="true" /> {upload.isPending ? 'Uploading…' : 'Upload files'}
        </Button>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={documentAccept}
          className="sr-only"
          tabIndex={-1}
          aria-label="Documents to upload"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void send(files);
          }}
        />
      </div>
      {results ? (
        <UploadOutcomes
          outcomes={results.outcomes}
          error={results.error}
          onDismiss={() => setResults(null)}
        />
      ) : null}
      {documents.isPending ? (
        <TableLoading label="Loading the documents" />
      ) : documents.isError ? (
        <TableLoadError what="The documents" error={documents.error} />
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-6 py-10 text-center">
          <Upload aria-hidden="true" className="size-6 text-muted-foreground" />
          <p className="font-medium">Drop files here, or upload them</p>
          <p className="max-w-prose text-sm text-muted-foreground">
            {knowledgeTypesLabel}, up to {knowledgeLimits.filesPerUpload} at a time. Each is read,
            split into passages and indexed; then chats with this knowledge base attached can cite
            it.
          </p>
        </div>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">
            Drop more files anywhere here. {knowledgeTypesLabel}.
          </p>
          <ul className="grid gap-2" aria-label="Documents of this knowledge base">
            {list.map((document) => (
              <DocumentRow
                key={document.id}
                document={document}
                retrying={retry.isPending && retry.variables === document.id}
                onRetry={() =>
                  retry.mutate(document.id, {
                    onError: (error) =>
                      toast.error(`Could not retry “${document.name}”`, {
                        description: errorMessage(error),
                      }),
                  })
                }
                onDelete={() => setDeleting(document)}
              />
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete document"
        destructive
        onConfirm={() => {
          const document = deleting;
          setDeleting(null);
          if (!document) return;
          remove.mutate(document.id, {
            onSuccess: () => toast.success(`“${document.name}” deleted`),
            onError: (error) =>
              toast.error(`Could not delete “${document.name}”`, {
                description: errorMessage(error),
              }),
          });
        }}
        onCancel={() => setDeleting(null)}
      >
        Its passages and its file go with it: chats stop finding and citing it. Replies that cited
        it before keep what they quoted.
      </ConfirmDialog>
    </section>
  );
};
