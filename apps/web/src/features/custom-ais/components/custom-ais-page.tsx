import { BookOpen, Globe, Library, MessageSquare, Pencil, Plus, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import {
  CardDeleteButton,
  CardDescription,
  CardFact,
  CardList,
  DeleteConfirm,
  plural,
} from '@/components/forms/card-list';
import { modelLabel, PersonaCardHead } from '@/components/persona/persona-card';
import { Button } from '@/components/ui/button';
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
    <PersonaCardHead name={ai.name} avatar={ai.avatar}>
      <p className="text-xs text-muted-foreground" data-testid="custom-ai-model">
        {modelLabel(ai)}
      </p>
    </PersonaCardHead>
    <CardDescription text={ai.description} />
    <p className="mt-auto flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
      <CardFact icon={MessageSquare}>{plural(ai.starters.length, 'starter', 'starters')}</CardFact>
      <CardFact icon={Library}>
        {plural(ai.knowledge_base_ids.length, 'knowledge base', 'knowledge bases')}
      </CardFact>
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
      <CardDeleteButton onClick={onDelete} />
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

  const body = (
    <CardList
      list={list}
      count={ais.length}
      noun="custom AIs"
      empty={
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
          optionally its settings, conversation starters and knowledge bases. Create one, then pick
          it in any chat’s model picker, or press “Start a chat” on its card. It answers with your
          own provider keys, so{' '}
          <Link to="/copy-api-keys" className="text-primary underline underline-offset-4">
            add a key
          </Link>{' '}
          for the provider it uses.
        </EmptyState>
      }
    >
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
    </CardList>
  );

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
      <DeleteConfirm
        item={deleting}
        confirmLabel="Delete custom AI"
        remove={remove}
        onClose={() => setDeleting(null)}
      >
        Chats that talk to it keep their messages and go back to a plain model. Its knowledge bases
        are not deleted.
      </DeleteConfirm>
    </div>
  );
};
