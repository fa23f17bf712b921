import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Pencil, Pin, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Conversation } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
import { pinMessages } from '@chorus/shared/share-messages';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useConversations } from '@/lib/queries/conversations';
import { useDeleteConversation } from '@/lib/queries/delete-conversation';
import { messagesQueryOptions } from '@/lib/queries/messages';
import { useRenameConversation } from '@/lib/queries/rename-conversation';
import { cn } from '@/lib/utils';
import { ConversationActions, useShareDialog } from './conversation-actions';

const rowHeightPx = 40;
const headingHeightPx = 28;

/** A row of the virtual list: a conversation, or the heading of a group ("Pinned", "Recent"). */
type ListItem =
  | { kind: 'heading'; key: string; label: string }
  | { kind: 'conversation'; key: string; conversation: Conversation };

/** The rows as the server orders them (pinned first), with a heading above each group. */
const groupConversations = (rows: Conversation[]): ListItem[] => {
  const item = (conversation: Conversation): ListItem => ({
    kind: 'conversation',
    key: conversation.id,
    conversation,
  });
  const pinned = rows.filter((row) => row.pinned_at);
  if (pinned.length === 0) return rows.map(item);
  const others = rows.filter((row) => !row.pinned_at);
  const heading = (label: string): ListItem => ({
    kind: 'heading',
    key: `heading:${label}`,
    label,
  });
  return [
    heading(pinMessages.pinnedGroup),
    ...pinned.map(item),
    ...(others.length > 0 ? [heading(pinMessages.othersGroup), ...others.map(item)] : []),
  ];
};

const RenameInput = ({
  conversation,
  onDone,
}: {
  conversation: Conversation;
  onDone: (title: string | null) => void;
}) => {
  const [title, setTitle] = useState(conversation.title);
  const finished = useRef(false);
  const finish = (value: string | null) => {
    if (finished.current) return;
    finished.current = true;
    onDone(value);
  };
  return (
    <Input
      aria-label="Conversation title"
      value={title}
      maxLength={200}
      autoFocus
      onFocus={(event) => event.currentTarget.select()}
      onChange={(event) => setTitle(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') finish(title);
        if (event.key === 'Escape') finish(null);
      }}
      onBlur={() => finish(title)}
      className="h-8"
    />
  );
};

type ConversationRowProps = {
  conversation: Conversation;
  active: boolean;
  onIntent: () => void;
  onOpen: (() => void) | undefined;
  onRename: () => void;
  onDelete: () => void;
  /** The "…" menu: pin, export, share. */
  actions: ReactNode;
};

const ConversationRow = ({
  conversation,
  active,
  onIntent,
  onOpen,
  onRename,
  onDelete,
  actions,
}: ConversationRowProps) => {
  const title = conversation.title || messages.chat.defaultTitle;
  const pinned = Boolean(conversation.pinned_at);
  return (
    <div
      className={cn(
        'group flex h-full items-center gap-1 rounded-md pr-1 text-sm',
        active ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
      )}
    >
      <Link
        to={`/chat/${conversation.id}`}
        aria-current={active ? 'page' : undefined}
        onPointerEnter={onIntent}
        onFocus={onIntent}
        onClick={onOpen}
        className="min-w-0 flex-1 truncate rounded-md px-2 py-2 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {pinned ? (
          <Pin
            aria-hidden="true"
            className="mr-1.5 inline size-3.5 align-[-2px] text-muted-foreground"
          />
        ) : null}
        {title}
        {pinned ? <span className="sr-only">{pinMessages.pinnedSuffix}</span> : null}
      </Link>
      {/* Shown on hover or focus where there is a mouse; always on touch screens, which have no hover. */}
      <div className="flex pointer-fine:opacity-0 pointer-fine:transition-opacity pointer-fine:group-focus-within:opacity-100 pointer-fine:group-hover:opacity-100 pointer-fine:has-[[data-state=open]]:opacity-100">
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label={`Rename ${title}`}
          title="Rename"
          onClick={onRename}
        >
          <Pencil />
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="size-7 hover:text-destructive"
          aria-label={`Delete ${title}`}
          title="Delete"
          onClick={onDelete}
        >
          <Trash2 />
        </Button>
        {actions}
      </div>
    </div>
  );
};

type ConversationListProps = {
  /** The conversation open in the chat, if any. */
  activeId: string | undefined;
  /** Words to find in titles, already debounced; empty lists every conversation. */
  search: string;
  /** Called when a conversation is opened (the phone's drawer closes). */
  onOpen?: () => void;
  className?: string;
};

/**
 * The signed-in user's conversations, newest first, searched on the server and loaded page by
 * page as the list scrolls (a virtual list: thousands stay smooth). Pointing at or focusing a
 * conversation starts loading its messages, so it opens at once when clicked.
 */
export const ConversationList = ({
  activeId,
  search,
  onOpen,
  className,
}: ConversationListProps) => {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useConversations(search);
  const rename = useRenameConversation();
  const remove = useDeleteConversation();
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const sharing = useShareDialog();

  const rows = list.data?.pages.flatMap((page) => page.conversations) ?? [];
  const listItems = groupConversations(rows);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The app does not build with the React Compiler; the virtualizer re-renders this itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: listItems.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (listItems[index]?.kind === 'heading' ? headingHeightPx : rowHeightPx),
    overscan: 12,
    getItemKey: (index) => listItems[index]?.key ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= listItems.length - 10) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, listItems.length]);

  const confirmDelete = () => {
    if (!deleting) return;
    const id = deleting.id;
    setDeleting(null);
    remove.mutate(id);
    if (id === activeId) void navigate('/chat', { replace: true });
  };

  const listError = list.isError
    ? isApiError(list.error) && list.error.status === 401
      ? messages.auth.requiredSignInAgain
      : errorMessage(list.error, 'Could not load your conversations')
    : null;

  return (
    <div ref={scrollRef} className={cn('min-h-0 overflow-y-auto', className)}>
      {listError ? (
        <div role="alert" className="grid gap-2 px-2 py-4 text-sm">
          <p className="text-destructive">{listError}</p>
          <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      ) : list.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label="Loading conversations" />
        </div>
      ) : rows.length === 0 ? (
        <p className="px-2 py-4 text-sm text-muted-foreground">
          {search
            ? `No conversations match “${search}”.`
            : 'No conversations yet. Write your first message to start one; it is saved here.'}
        </p>
      ) : (
        <ul className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const listItem = listItems[item.index];
            if (!listItem) return null;
            if (listItem.kind === 'heading') {
              return (
                <li
                  key={item.key}
                  className="absolute top-0 left-0 flex w-full items-end px-2 pb-1 text-xs font-medium text-muted-foreground"
                  style={{ height: item.size, transform: `translateY(${item.start}px)` }}
                >
                  {listItem.label}
                </li>
              );
            }
            const { conversation } = listItem;
            return (
              <li
                key={item.key}
                className="absolute top-0 left-0 w-full py-0.5"
                style={{ height: item.size, transform: `translateY(${item.start}px)` }}
              >
                {renamingId === conversation.id ? (
                  <RenameInput
                    conversation={conversation}
                    onDone={(title) => {
                      setRenamingId(null);
                      const next = title?.trim();
                      if (next && next !== conversation.title) {
                        rename.mutate({ id: conversation.id, title: next });
                      }
                    }}
                  />
                ) : (
                  <ConversationRow
                    conversation={conversation}
                    active={conversation.id === activeId}
                    onIntent={() =>
                      void queryClient.prefetchInfiniteQuery(messagesQueryOptions(conversation.id))
                    }
                    onOpen={onOpen}
                    onRename={() => setRenamingId(conversation.id)}
                    onDelete={() => setDeleting(conversation)}
                    actions={
                      <ConversationActions
                        conversation={conversation}
                        onShare={() => sharing.share(conversation)}
                      />
                    }
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
      {isFetchingNextPage ? (
        <div className="flex justify-center py-2">
          <Spinner className="size-4" label="Loading more conversations" />
        </div>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this conversation?"
        confirmLabel="Delete"
        destructive
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        “{deleting?.title}” and all its messages will be deleted for good.
      </ConfirmDialog>
      {sharing.dialog}
    </div>
  );
};
