import { BadgeCheck, Ban, Clock, MessageSquare, Coins } from 'lucide-react';
import { useState } from 'react';
import {
  widgetLimits,
  widgetOwnerMessages,
  type WidgetConversationBrief,
  type WidgetVisitor,
} from '@chorus/shared/api/widgets';
import { CardFact, plural } from '@/components/forms/card-list';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TableLoadError, TableLoading } from '@/components/ui/data-table';
import { Dialog } from '@/components/ui/dialog';
import { SearchInput } from '@/components/ui/search-input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useBlockVisitor, useWidgetConversation, useWidgetSessions } from '../api/widgets';

/** The visitor's name from the host site, else their id there, else an anonymous one. */
export const visitorLabel = (visitor: WidgetVisitor) =>
  visitor.name ?? visitor.external_id ?? `Anonymous visitor ${visitor.id.slice(0, 8)}`;

const Badge = ({ children, tone }: { children: string; tone: 'good' | 'bad' | 'plain' }) => (
  <span
    className={
      tone === 'good'
        ? 'rounded-full bg-emerald-500/15 px-2 py-0.5 text-xs text-emerald-700 dark:text-emerald-300'
        : tone === 'bad'
          ? 'rounded-full bg-destructive/15 px-2 py-0.5 text-xs text-destructive'
          : 'rounded-full bg-muted px-2 py-0.5 text-xs text-muted-foreground'
    }
  >
    {children}
  </span>
);

const VisitorBadges = ({ visitor }: { visitor: WidgetVisitor }) => (
  <>
    {visitor.signed ? <Badge tone="good">Signed</Badge> : <Badge tone="plain">Anonymous</Badge>}
    {visitor.blocked ? <Badge tone="bad">Blocked</Badge> : null}
  </>
);

const ConversationItem = ({
  conversation,
  onRead,
  onBlock,
}: {
  conversation: WidgetConversationBrief;
  onRead: () => void;
  onBlock: () => void;
}) => {
  const { visitor } = conversation;
  return (
    <li
      aria-label={`${visitorLabel(visitor)}: ${conversation.title}`}
      className="grid gap-2 rounded-lg border p-3"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-all">{visitorLabel(visitor)}</span>
        <VisitorBadges visitor={visitor} />
      </div>
      <p className="text-sm font-medium break-words">{conversation.title}</p>
      {conversation.snippet ? (
        <p className="line-clamp-2 text-sm break-words text-muted-foreground">
          {conversation.snippet}
        </p>
      ) : null}
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <CardFact icon={MessageSquare}>
          {plural(conversation.message_count, 'message', 'messages')}
        </CardFact>
        <CardFact icon={Coins}>
          {plural(conversation.input_tokens + conversation.output_tokens, 'token', 'tokens')}
        </CardFact>
        <CardFact icon={Clock}>Last activity {formatDateTime(conversation.updated_at)}</CardFact>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onRead}>
          Read
        </Button>
        <Button variant="ghost" size="sm" onClick={onBlock}>
          {visitor.blocked ? (
            <>
              <BadgeCheck aria-hidden="true" /> Unblock visitor
            </>
          ) : (
            <>
              <Ban aria-hidden="true" /> Block visitor
            </>
          )}
        </Button>
      </div>
    </li>
  );
};

/** One conversation's messages as plain text, with the passages each reply cited. */
const ConversationDialog = ({
  widgetId,
  conversationId,
  onClose,
}: {
  widgetId: string;
  conversationId: string | null;
  onClose: () => void;
}) => {
  const conversation = useWidgetConversation(widgetId, conversationId);
  const data = conversation.data?.id === conversationId ? conversation.data : undefined;
  return (
    <Dialog
      open={conversationId !== null}
      title={data?.title || 'Conversation'}
      onClose={onClose}
      className="max-w-2xl"
    >
      {conversation.isError ? (
        <p role="alert" className="text-sm text-destructive">
          The conversation could not be loaded: {errorMessage(conversation.error)}
        </p>
      ) : !data ? (
        <Spinner label="Loading the conversation" />
      ) : (
        <div className="grid gap-3">
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            {visitorLabel(data.visitor)} <VisitorBadges visitor={data.visitor} /> · started{' '}
            {formatDateTime(data.created_at)}
          </p>
          <ol aria-label="Messages" className="grid max-h-[60vh] gap-3 overflow-y-auto">
            {data.messages.map((message) => (
              <li
                key={message.id}
                className={
                  message.role === 'user'
                    ? 'rounded-lg bg-muted/60 p-3 text-sm'
                    : 'rounded-lg border p-3 text-sm'
                }
              >
                <p className="mb-1 text-xs font-medium text-muted-foreground">
                  {message.role === 'user' ? 'Visitor' : 'Assistant'} ·{' '}
                  {formatDateTime(message.created_at)}
                  {message.status === 'failed' ? ' · did not finish' : null}
                  {message.status === 'streaming' ? ' · still writing' : null}
                </p>
                <p className="break-words whitespace-pre-wrap">{message.content}</p>
                {message.sources.length > 0 ? (
                  <div className="mt-2 grid gap-1 border-t pt-2">
                    <p className="text-xs font-medium">Sources</p>
                    <ol className="grid list-decimal gap-1 pl-5 text-xs text-muted-foreground">
                      {message.sources.map((source, index) => (
                        <li key={index}>
                          <span className="font-medium text-foreground">{source.document}</span>
                          {source.position ? ` (${source.position})` : null}
                          <span className="line-clamp-2 break-words">{source.text}</span>
                        </li>
                      ))}
                    </ol>
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
          <div className="flex justify-end">
            <Button variant="outline" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
};

/**
 * A widget's visitor conversations, newest first, searchable by what was said: each can be read,
 * and its visitor blocked or let back in.
 */
export const WidgetSessions = ({
  widgetId,
  widgetName,
}: {
  widgetId: string;
  widgetName: string;
}) => {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const sessions = useWidgetSessions(widgetId, query);
  const [reading, setReading] = useState<string | null>(null);
  const [blocking, setBlocking] = useState<WidgetVisitor | null>(null);
  const block = useBlockVisitor();
  const items = sessions.data?.pages.flatMap((page) => page.items) ?? [];

  const confirmBlock = () => {
    const visitor = blocking;
    setBlocking(null);
    if (!visitor) return;
    const blocked = !visitor.blocked;
    block.mutate(
      { id: widgetId, visitorId: visitor.id, blocked },
      {
        onSuccess: () =>
          toast.success(
            blocked
              ? `${visitorLabel(visitor)} is blocked`
              : `${visitorLabel(visitor)} may chat again`,
          ),
        onError: (error) =>
          toast.error(`${visitorLabel(visitor)} was not changed`, {
            description: errorMessage(error),
          }),
      },
    );
  };

  let body;
  if (sessions.isPending) body = <TableLoading label="Loading the conversations" />;
  else if (sessions.isError)
    body = <TableLoadError what="The conversations" error={sessions.error} />;
  else if (items.length === 0) {
    body = (
      <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
        {query
          ? `No conversation mentions “${query}”.`
          : 'No visitor has chatted yet. Conversations show here as soon as one does.'}
      </p>
    );
  } else {
    body = (
      <>
        <ul aria-label="Conversations" className="grid gap-2">
          {items.map((conversation) => (
            <ConversationItem
              key={conversation.id}
              conversation={conversation}
              onRead={() => setReading(conversation.id)}
              onBlock={() => setBlocking(conversation.visitor)}
            />
          ))}
        </ul>
        {sessions.hasNextPage ? (
          <div className="flex justify-center">
            <Button
              variant="outline"
              disabled={sessions.isFetchingNextPage}
              onClick={() => void sessions.fetchNextPage()}
            >
              Load more
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="grid gap-4">
      <form
        role="search"
        className="flex flex-wrap gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(text.trim());
        }}
      >
        <SearchInput
          label="Search conversations"
          placeholder="Search what visitors and the assistant said"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value === '') setQuery('');
          }}
        />
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>
      {body}
      <ConversationDialog
        widgetId={widgetId}
        conversationId={reading}
        onClose={() => setReading(null)}
      />
      <ConfirmDialog
        open={blocking !== null}
        title={blocking?.blocked ? 'Unblock this visitor?' : 'Block this visitor?'}
        confirmLabel={blocking?.blocked ? 'Unblock visitor' : 'Block visitor'}
        destructive={!blocking?.blocked}
        onConfirm={confirmBlock}
        onCancel={() => setBlocking(null)}
      >
        {blocking?.blocked ? (
          `${visitorLabel(blocking)} may chat with “${widgetName}” again.`
        ) : (
          <>
            <p>
              {widgetOwnerMessages.blockBody(blocking ? visitorLabel(blocking) : '', widgetName)}
            </p>
            {blocking && !blocking.signed ? (
              <p className="mt-2 text-muted-foreground">
                {widgetOwnerMessages.blockAddressNote(widgetLimits.blockedAddressHours)}
              </p>
            ) : null}
          </>
        )}
      </ConfirmDialog>
    </div>
  );
};
