import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import type { ShareCreated } from '@chorus/shared/api/conversation-sharing';
import type { Conversation } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
import { joinSentences } from '@chorus/shared/sentences';
import { shareMessages } from '@chorus/shared/share-messages';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { copyText } from '@/lib/clipboard';
import { formatDateTime } from '@/lib/format';
import {
  useCreateShareLink,
  useRevokeShareLink,
  useShareStatus,
} from '@/lib/queries/conversation-share';
import { toast } from '@/lib/toast';

/** The page a link opens, on this origin (the address the person is using now). */
export const shareUrl = (token: string) => `${window.location.origin}/share/${token}`;

const CreatedLink = ({ created }: { created: ShareCreated }) => {
  const inputId = useId();
  const [copied, setCopied] = useState(false);
  const url = shareUrl(created.token);
  const copy = async () => {
    if (await copyText(url)) setCopied(true);
  };
  return (
    <div className="grid gap-2">
      <label htmlFor={inputId} className="text-sm font-medium">
        {shareMessages.linkLabel}
      </label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          readOnly
          autoFocus
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs md:text-xs"
        />
        <Button onClick={() => void copy()} className="shrink-0">
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? shareMessages.copied : shareMessages.copy}
        </Button>
      </div>
      <p className="text-sm">
        <strong className="font-medium">{shareMessages.shownOnce}</strong>{' '}
        <span className="text-muted-foreground">
          {shareMessages.audience(created.message_count)}
        </span>
      </p>
    </div>
  );
};

type ShareDialogProps = {
  conversation: Pick<Conversation, 'id' | 'title'>;
  open: boolean;
  onClose: () => void;
};

/**
 * Creates, shows and revokes the conversation's read-only link. The token comes only with a new
 * link (the server keeps its hash), so an active link found later is described, not shown.
 */
export const ShareDialog = ({ conversation, open, onClose }: ShareDialogProps) => {
  const status = useShareStatus(conversation.id);
  const create = useCreateShareLink(conversation.id);
  const revoke = useRevokeShareLink(conversation.id);
  const [created, setCreated] = useState<ShareCreated | null>(null);
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  // Back from the question, the focus goes to the button that fits what happened.
  const [focusAfterConfirm, setFocusAfterConfirm] = useState<'revoke' | 'create' | null>(null);
  const busy = create.isPending || revoke.isPending;

  const close = () => {
    setConfirmingRevoke(false);
    setFocusAfterConfirm(null);
    setCreated(null);
    create.reset();
    revoke.reset();
    onClose();
  };

  const createLink = () => {
    revoke.reset();
    create.mutate(undefined, { onSuccess: setCreated });
  };

  const revokeLink = () =>
    revoke.mutate(undefined, {
      onSuccess: () => {
        setCreated(null);
        setConfirmingRevoke(false);
        setFocusAfterConfirm('create');
        toast.success(shareMessages.stopped);
      },
    });

  if (confirmingRevoke) {
    return (
      <Dialog open={open} title={shareMessages.stopTitle} onClose={close}>
        <p className="text-sm text-muted-foreground">{shareMessages.stopBody}</p>
        {revoke.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {joinSentences(shareMessages.stopFailed, errorMessage(revoke.error))}
          </p>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button
            variant="outline"
            autoFocus
            onClick={() => {
              setConfirmingRevoke(false);
              setFocusAfterConfirm('revoke');
            }}
          >
            Cancel
          </Button>
          <Button variant="destructive" disabled={busy} onClick={revokeLink}>
            {shareMessages.revoke}
          </Button>
        </div>
      </Dialog>
    );
  }

  const active = status.data?.active === true;
  let state;
  if (created) state = <CreatedLink created={created} />;
  else if (status.isPending) {
    state = (
      <div className="flex justify-center py-2">
        <Spinner className="size-5" label="Checking whether this conversation is shared" />
      </div>
    );
  } else if (status.isError) {
    state = (
      <div role="alert" className="grid justify-items-start gap-2 text-sm">
        <p className="text-destructive">
          {joinSentences(shareMessages.loadFailed, errorMessage(status.error))}
        </p>
        <Button variant="outline" size="sm" onClick={() => void status.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (active) {
    state = (
      <p className="text-sm">
        {shareMessages.active(
          formatDateTime(status.data.created_at),
          status.data.message_count ?? 0,
        )}{' '}
        <span className="text-muted-foreground">{shareMessages.linkHidden}</span>
      </p>
    );
  } else {
    state = <p className="text-sm">{shareMessages.notShared}</p>;
  }

  return (
    <Dialog open={open} title={shareMessages.dialogTitle} onClose={close}>
      <p className="-mt-2 truncate text-sm font-medium">
        {conversation.title || messages.chat.defaultTitle}
      </p>
      <p className="text-sm text-muted-foreground">{shareMessages.intro}</p>
      <div aria-live="polite" className="grid gap-3">
        {state}
        {create.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {joinSentences(shareMessages.createFailed, errorMessage(create.error))}
          </p>
        ) : null}
        {active && !created ? (
          <p className="text-xs text-muted-foreground">{shareMessages.replaceNote}</p>
        ) : null}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="ghost" onClick={close}>
          {created ? 'Done' : 'Close'}
        </Button>
        {active ? (
          <Button
            variant="outline"
            disabled={busy}
            autoFocus={focusAfterConfirm === 'revoke'}
            onClick={() => setConfirmingRevoke(true)}
          >
            {shareMessages.revoke}
          </Button>
        ) : null}
        {status.isSuccess ? (
          <Button disabled={busy} autoFocus={focusAfterConfirm === 'create'} onClick={createLink}>
            {create.isPending
              ? 'Creating…'
              : active
                ? shareMessages.createNew
                : shareMessages.create}
          </Button>
        ) : null}
      </div>
    </Dialog>
  );
};
