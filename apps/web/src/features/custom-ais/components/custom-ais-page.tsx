import {
  BookOpen,
  Globe,
  Library,
  MessageSquare,
  Pencil,
  Plus,
  Sparkles,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import { providers } from '@chorus/shared/providers';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { PageHeader } from '@/components/ui/page-header';
import { errorMessage } from '@/lib/api-error';
import { helpLinks } from '@/lib/help-links';
import { useCustomAis } from '@/lib/queries/custom-ais';
import { toast } from '@/lib/toast';
import { cn } from '@/lib/utils';
import { useDeleteCustomAi, useUnshareCustomAi } from '../api/custom-ais';
import { CustomAiDialog } from './custom-ai-dialog';
import { ShareCustomAiDialog } from './share-custom-ai-dialog';

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "OpenAI · GPT-5 mini", or the provider's default model when none is set. */
const modelLabel = (ai: CustomAi): string => {
  const entry = providers[ai.provider];
  const model = ai.model ?? entry.defaultModel;
  const label = entry.models.find((option) => option.value === model)?.label ?? model;
  return `${entry.name} · ${label}${ai.model === null ? ' (default)' : ''}`;
};

const startChatPath = (ai: CustomAi) => `/chat?custom_ai=${encodeURIComponent(ai.id)}`;

const shareLabel = {
  private: 'Private',
  submitted: 'Waiting for review',
  published: 'Published',
  rejected: 'Not published',
} as const;

/** Where it stands in /discover, and what that means for its owner. */
const ShareStatus = ({ ai }: { ai: CustomAi }) => {
  const status = ai.share_status ?? 'private';
  return (
    <div className="grid gap-1 text-xs" data-testid="custom-ai-share">
      <p className="flex flex-wrap items-center gap-2">
        <span
          className={cn(
            'rounded px-1.5 py-0.5 font-medium',
            status === 'published'
              ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100'
              : status === 'rejected'
                ? 'bg-destructive/10 text-destructive'
                : 'bg-muted',
          )}
        >
          {shareLabel[status]}
          {status === 'rejected' && ai.share_note ? `: ${ai.share_note}` : null}
        </span>
        {status !== 'private' && ai.category ? (
          <span className="text-muted-foreground">{ai.category}</span>
        ) : null}
      </p>
      {status === 'published' ? (
        <p className="text-muted-foreground">
          In Discover for everyone. A change you save sends it back for review.
        </p>
      ) : status === 'submitted' ? (
        <p className="text-muted-foreground">
          An admin will publish it in Discover, or say why not.
        </p>
      ) : null}
    </div>
  );
};

const CustomAiCard = ({
  ai,
  onEdit,
  onDelete,
  onShare,
  onUnshare,
  unsharing,
}: {
  ai: CustomAi;
  onEdit: () => void;
  onDelete: () => void;
  onShare: () => void;
  onUnshare: () => void;
  unsharing: boolean;
}) => (
  <li aria-label={ai.name} className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm">
    <div className="flex items-start gap-3">
      <CustomAiAvatar name={ai.name} avatar={ai.avatar} />
      <div className="min-w-0 flex-1">
        <h2 className="font-medium break-words">{ai.name}</h2>
        <p className="text-xs text-muted-foreground" data-testid="custom-ai-model">
          {modelLabel(ai)}
        </p>
      </div>
    </div>
    {ai.description ? (
      <p className="line-clamp-3 text-sm break-words text-muted-foreground">{ai.description}</p>
    ) : null}
    <p className="mt-auto flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <span className="inline-flex items-center gap-1">
        <MessageSquare aria-hidden="true" className="size-3.5" />
        {plural(ai.starters.length, 'starter', 'starters')}
      </span>
      <span className="inline-flex items-center gap-1">
        <Library aria-hidden="true" className="size-3.5" />
        {plural(ai.knowledge_base_ids.length, 'knowledge base', 'knowledge bases')}
      </span>
    </p>
    <ShareStatus ai={ai} />
    <div className="flex flex-wrap gap-2">
      <LinkButton to={startChatPath(ai)} size="sm">
        <MessageSquare aria-hidden="true" /> Start a chat
      </LinkButton>
      <Button variant="outline" size="sm" onClick={onEdit}>
        <Pencil aria-hidden="true" /> Edit
      </Button>
      {ai.share_status === 'submitted' || ai.share_status === 'published' ? (
        <Button variant="outline" size="sm" onClick={onUnshare} disabled={unsharing}>
          Stop sharing
        </Button>
      ) : (
        <Button variant="outline" size="sm" onClick={onShare}>
          <Globe aria-hidden="true" /> Share to Discover
        </Button>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="ml-auto size-8 text-muted-foreground"
        aria-label="Delete"
        title="Delete"
        onClick={onDelete}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  </li>
);

/**
 * Custom AIs: saved personas (instructions, a model and its parameters, conversation starters,
 * knowledge bases) that any chat can talk to from its model picker.
 */
export const CustomAisPage = () => {
  const list = useCustomAis();
  const [editing, setEditing] = useState<{ ai: CustomAi | null } | null>(null);
  const [deleting, setDeleting] = useState<CustomAi | null>(null);
  const remove = useDeleteCustomAi();
  const [sharing, setSharing] = useState<CustomAi | null>(null);
  const unshare = useUnshareCustomAi();
  const stopSharing = (ai: CustomAi) =>
    unshare.mutate(ai.id, {
      onSuccess: () => toast.success(`“${ai.name}” is private again`),
      onError: (error) =>
        toast.error(`Could not stop sharing “${ai.name}”`, { description: errorMessage(error) }),
    });
  const openNew = () => setEditing({ ai: null });
  const ais = list.data?.custom_ais ?? [];

  let body;
  if (list.isPending) body = <TableLoading label="Loading your custom AIs" />;
  else if (list.isError) body = <TableLoadError what="Your custom AIs" error={list.error} />;
  else if (ais.length === 0) {
    body = (
      <EmptyState
        icon={Sparkles}
        title="No custom AIs yet"
        action={
          <>
            <Button onClick={openNew}>
              <Plus aria-hidden="true" /> New custom AI
            </Button>
            <LinkButton to={helpLinks.customAis} variant="outline">
              <BookOpen aria-hidden="true" /> How custom AIs work
            </LinkButton>
          </>
        }
      >
        A custom AI is an assistant you set up once: its instructions, a provider and model, and
        optionally its settings, conversation starters and knowledge bases. Create one, then pick it
        in any chat’s model picker, or press “Start a chat” on its card. It answers with your own
        provider keys, so{' '}
        <Link to="/copy-api-keys" className="text-primary underline underline-offset-4">
          add a key
        </Link>{' '}
        for the provider it uses.
      </EmptyState>
    );
  } else {
    body = (
      <ul aria-label="Your custom AIs" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {ais.map((ai) => (
          <CustomAiCard
            key={ai.id}
            ai={ai}
            onEdit={() => setEditing({ ai })}
            onDelete={() => setDeleting(ai)}
            onShare={() => setSharing(ai)}
            onUnshare={() => stopSharing(ai)}
            unsharing={unshare.isPending}
          />
        ))}
      </ul>
    );
  }

  return (
    <div>
      <PageHeader
        title="Custom AIs"
        description={
          <>
            Assistants with their own instructions, model and knowledge, ready in every chat.{' '}
            <Link to={helpLinks.customAis} className="text-primary underline underline-offset-4">
              How they work
            </Link>
          </>
        }
        actions={
          ais.length > 0 ? (
            <Button onClick={openNew}>
              <Plus aria-hidden="true" /> New custom AI
            </Button>
          ) : null
        }
      />
      {body}
      <CustomAiDialog
        open={editing !== null}
        ai={editing?.ai ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
      <ShareCustomAiDialog ai={sharing} onClose={() => setSharing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ''}”?`}
        confirmLabel="Delete custom AI"
        destructive
        onConfirm={() => {
          const ai = deleting;
          setDeleting(null);
          if (!ai) return;
          remove.mutate(ai.id, {
            onSuccess: () => toast.success(`“${ai.name}” deleted`),
            onError: (error) =>
              toast.error(`Could not delete “${ai.name}”`, { description: errorMessage(error) }),
          });
        }}
        onCancel={() => setDeleting(null)}
      >
        Chats that talk to it keep their messages and go back to a plain model. Its knowledge bases
        are not deleted.
      </ConfirmDialog>
    </div>
  );
};
