import { Sparkles, Star } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { customAiLimits, type AdminCustomAi } from '@chorus/shared/api/custom-ais';
import { providers } from '@chorus/shared/providers';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { Button } from '@/components/ui/button';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FormActions } from '@/components/ui/form-actions';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useCurateCustomAi, type CustomAiDecision } from '../api/curate-custom-ai';
import { useAdminCustomAis, type AdminCustomAiStatus } from '../api/get-admin-custom-ais';

const modelOf = (ai: AdminCustomAi) =>
  `${providers[ai.provider].name} · ${ai.model ?? `${providers[ai.provider].defaultModel} (default)`}`;

/** "Reject": the owner reads the note on their Custom AIs page. */
const RejectForm = ({
  ai,
  onDecide,
  onDone,
}: {
  ai: AdminCustomAi;
  onDecide: (decision: CustomAiDecision) => Promise<unknown>;
  onDone: () => void;
}) => {
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) {
      setError('Say why it is not published, so its owner can fix it.');
      return;
    }
    setBusy(true);
    onDecide({ id: ai.id, action: 'reject', body: { note: note.trim() } }).then(
      () => {
        toast.success(`“${ai.name}” is not published; its owner sees your note`);
        onDone();
      },
      (failure: unknown) => {
        setBusy(false);
        setError(errorMessage(failure));
      },
    );
  };
  return (
    <form className="grid gap-4" onSubmit={submit} noValidate>
      <div className="grid gap-2">
        <Label htmlFor={id}>Note for its owner</Label>
        <Textarea
          id={id}
          rows={4}
          value={note}
          maxLength={customAiLimits.shareNote}
          onChange={(event) => setNote(event.target.value)}
        />
      </div>
      <FormActions
        error={error}
        onCancel={onDone}
        submitLabel={busy ? 'Sending…' : 'Reject'}
        submitDisabled={busy}
      />
    </form>
  );
};

const CustomAiEntry = ({
  ai,
  busy,
  onPublish,
  onReject,
}: {
  ai: AdminCustomAi;
  busy: boolean;
  onPublish: (featured: boolean) => void;
  onReject: () => void;
}) => {
  const [featured, setFeatured] = useState(ai.featured);
  const featureId = useId();
  const published = ai.share_status === 'published';
  return (
    <li
      aria-label={ai.name}
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm md:grid-cols-[1fr_auto]"
    >
      <div className="grid min-w-0 gap-2">
        <div className="flex items-center gap-3">
          <CustomAiAvatar name={ai.name} avatar={ai.avatar} />
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-medium break-words">
              {ai.featured ? (
                <Star aria-label="Featured" className="size-4 fill-amber-400 text-amber-500" />
              ) : null}
              {ai.name}
              <span className="rounded bg-muted px-1.5 py-0.5 text-xs font-normal">
                {published ? 'Published' : 'Waiting for review'}
              </span>
              <span className="text-xs font-normal text-muted-foreground">{ai.category}</span>
            </p>
            <p className="text-xs text-muted-foreground" data-testid="admin-custom-ai-model">
              {modelOf(ai)}
            </p>
          </div>
        </div>
        {ai.description ? <p className="text-sm text-muted-foreground">{ai.description}</p> : null}
        {/* The author's text, shown as text: never rendered as markup. */}
        <div>
          <p className="text-xs font-medium text-muted-foreground">Instructions</p>
          <pre className="mt-1 max-h-60 overflow-auto rounded-md bg-muted/50 p-3 font-sans text-sm break-words whitespace-pre-wrap">
            {ai.system_prompt || '(none)'}
          </pre>
        </div>
        {ai.starters.length > 0 ? (
          <ul aria-label="Conversation starters" className="list-disc pl-5 text-sm">
            {ai.starters.map((starter) => (
              <li key={starter}>{starter}</li>
            ))}
          </ul>
        ) : null}
        <p className="text-xs text-muted-foreground">
          By {ai.author_email ?? 'a removed account'}
          {ai.share_requested_at ? ` · asked ${formatDate(ai.share_requested_at)}` : ''}
          {ai.published_at ? ` · published ${formatDate(ai.published_at)}` : ''}
        </p>
      </div>
      <div className="flex flex-wrap items-start gap-2 md:flex-col md:items-stretch">
        <label htmlFor={featureId} className="flex items-center gap-2 text-sm">
          <input
            id={featureId}
            type="checkbox"
            checked={featured}
            onChange={(event) => setFeatured(event.target.checked)}
          />
          Featured
        </label>
        <Button size="sm" disabled={busy} onClick={() => onPublish(featured)}>
          {published ? 'Save' : 'Publish'}
        </Button>
        <Button variant="outline" size="sm" disabled={busy} onClick={onReject}>
          {published ? 'Unpublish' : 'Reject'}
        </Button>
      </div>
    </li>
  );
};

/**
 * Curation of the custom AIs owners shared (issue 18): publish one in /discover, featured or not,
 * or send it back with a note. Every decision is written to the audit log.
 */
export const AdminCustomAisPage = () => {
  const [status, setStatus] = useState<AdminCustomAiStatus>('submitted');
  const list = useAdminCustomAis(status);
  const curate = useCurateCustomAi();
  const [rejecting, setRejecting] = useState<AdminCustomAi | null>(null);

  const publish = (ai: AdminCustomAi, featured: boolean) =>
    curate.mutate(
      { id: ai.id, action: 'publish', body: { featured } },
      {
        onSuccess: () =>
          toast.success(`“${ai.name}” is published${featured ? ' and featured' : ''}`),
        onError: (error) =>
          toast.error(`Could not publish “${ai.name}”`, { description: errorMessage(error) }),
      },
    );

  let body;
  if (list.isPending) body = <TableLoading label="Loading custom AIs" />;
  else if (list.isError) body = <TableLoadError what="The custom AIs" error={list.error} />;
  else if (list.data.custom_ais.length === 0) {
    body = (
      <EmptyState icon={Sparkles} title="Nothing to curate">
        {status === 'submitted'
          ? 'Custom AIs appear here when their owners share them to Discover.'
          : 'No custom AI is published yet. Publish one from those waiting for review.'}
      </EmptyState>
    );
  } else {
    body = (
      <ul className="grid gap-3" aria-label="Custom AIs">
        {list.data.custom_ais.map((ai) => (
          <CustomAiEntry
            key={`${ai.id}:${ai.featured}`}
            ai={ai}
            busy={curate.isPending}
            onPublish={(featured) => publish(ai, featured)}
            onReject={() => setRejecting(ai)}
          />
        ))}
      </ul>
    );
  }

  return (
    <div>
      <PageHeader
        title="Custom AIs"
        description="Custom AIs their owners shared to Discover. Read the instructions: once published, everyone can read them and chat with it, on their own keys. Every decision is written to the audit log."
      />
      <div className="grid gap-4">
        <NativeSelect
          className="w-56"
          aria-label="Show"
          value={status}
          onChange={(event) => setStatus(event.target.value as AdminCustomAiStatus)}
        >
          <option value="submitted">Waiting for review</option>
          <option value="published">Published</option>
        </NativeSelect>
        {body}
      </div>
      <Dialog
        open={rejecting !== null}
        title={`${rejecting?.share_status === 'published' ? 'Unpublish' : 'Reject'} “${rejecting?.name ?? ''}”`}
        onClose={() => setRejecting(null)}
      >
        {rejecting ? (
          <RejectForm
            key={rejecting.id}
            ai={rejecting}
            onDecide={(decision) => curate.mutateAsync(decision)}
            onDone={() => setRejecting(null)}
          />
        ) : null}
      </Dialog>
    </div>
  );
};
