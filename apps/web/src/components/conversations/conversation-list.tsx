import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Pencil, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Conversation } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
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

const rowHeightPx = 40;

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
};

const ConversationRow = ({
  conversation,
  active,
  onIntent,
  onOpen,
  onRename,
  onDelete,
}: ConversationRowProps) => {
  const title = conversation.title || messages.chat.defaultTitle;
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
        {title}
      </Link>
      {/* Shown on hover or focus where there is a mouse; always on touch screens, which have no hover. */}
      <div className="flex pointer-fine:opacity-0 pointer-fine:transition-opacity pointer-fine:group-focus-within:opacity-100 pointer-fine:group-hover:opacity-100">
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

  const rows = list.data?.pages.flatMap((page) => page.conversations) ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  // The app does not build with the React Compiler; the virtualizer re-renders this itself.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeightPx,
    overscan: 12,
    getItemKey: (index) => rows[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= rows.length - 10) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, rows.length]);

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
            const conversation = rows[item.index];
            if (!conversation) return null;
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
    </div>
  );
};
