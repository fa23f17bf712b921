import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, MessageSquare, SearchX } from 'lucide-react';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import type { Message } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
import { providers } from '@chorus/shared/providers';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-error';
import { titleFromText, useCreateConversation } from '../api/create-conversation';
import { keyAvailabilityQueryKey, useProviderHasKey } from '../api/get-key-availability';
import { messagesQueryKey, useMessages } from '../api/get-messages';
import type { ChatSendOptions } from '../hooks/chat-request';
import { rowFromLive, rowFromMessage, uiMessageFromStored, type ChatRow } from '../hooks/chat-rows';
import { describeChatError } from '../hooks/describe-chat-error';
import type { LiveChat, LiveChatBody, LiveSnapshot } from '../hooks/live-chat';
import { useProviderSettings } from '../hooks/provider-settings';
import { loadLiveChatModule, useLiveChatModule, useLiveChats } from '../hooks/use-live-chat';
import { useChatFeature } from './chat-context';
import { Composer } from './composer';
import { ConversationSidebar } from './conversation-sidebar';
import { MessageItem } from './message-item';
import { MessageList } from './message-list';
import { ModelPicker } from './model-picker';

const noMessages: LiveSnapshot['messages'] = [];

const pendingRow = (provider: string): ChatRow => ({
  id: 'pending-reply',
  role: 'assistant',
  content: '',
  status: 'streaming',
  provider,
  model: null,
  sources: [],
  stored: false,
});

const MissingKeyNotice = ({
  providerLabel,
  role = 'status',
}: {
  providerLabel: string;
  role?: 'status' | 'alert';
}) => (
  <div
    role={role}
    className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm"
  >
    <KeyRound aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
    <p className="flex-1">
      No API key is available for {providerLabel}. Add your own key, or ask an administrator to
      enable a system key, or pick another provider below.
    </p>
    <LinkButton to="/copy-api-keys" size="sm" variant="outline">
      Add an API key
    </LinkButton>
  </div>
);

const ChatError = ({ error, providerLabel }: { error: Error; providerLabel: string }) => {
  const view = describeChatError(error);
  if (view.kind === 'missing-key') {
    return <MissingKeyNotice providerLabel={providerLabel} role="alert" />;
  }
  const text =
    view.kind === 'not-found' ? 'This conversation no longer exists. Start a new chat.' : view.text;
  return (
    <p
      role="alert"
      className="rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-destructive"
    >
      {text}
      {view.kind === 'plan' ? (
        <>
          {' '}
          <Link to="/profile" className="underline underline-offset-4">
            See your plan
          </Link>
        </>
      ) : null}
    </p>
  );
};

const WelcomeState = ({ providerLabel }: { providerLabel: string }) => (
  <div className="flex flex-1 items-center justify-center p-6">
    <EmptyState icon={MessageSquare} title="Start a conversation" className="max-w-lg border-none">
      Write a message below and press Enter. {providerLabel} answers with the model chosen under the
      box; switch provider or model at any time. Replies use your own API key for the provider, or
      the workspace&apos;s default or system key.{' '}
      <Link to="/copy-api-keys" className="text-primary underline underline-offset-4">
        Manage API keys
      </Link>
    </EmptyState>
  </div>
);

const ChatPane = ({ conversationId }: { conversationId: string | undefined }) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { provider, setProvider } = useChatFeature();
  const providerSettings = useProviderSettings(provider);
  const { settings } = providerSettings;
  const getLiveChat = useLiveChats();
  const liveModule = useLiveChatModule();
  const create = useCreateConversation();
  const chat = useMemo(
    () => (liveModule && conversationId ? getLiveChat(liveModule, conversationId) : null),
    [liveModule, conversationId, getLiveChat],
  );
  const [snapshot, setSnapshot] = useState<LiveSnapshot | null>(null);
  const current = chat && snapshot?.chat === chat ? snapshot : null;
  const live = current?.messages ?? noMessages;
  const status = current?.status ?? 'ready';
  const error = current?.error;
  const history = useMessages(conversationId);
  const [draft, setDraft] = useState('');

  // A new chat becomes /chat/{id} on its first message: keep the pane's state through that.
  const [shownId, setShownId] = useState(conversationId);
  const [adoptedId, setAdoptedId] = useState<string | null>(null);
  if (shownId !== conversationId) {
    setShownId(conversationId);
    if (conversationId !== adoptedId) setDraft('');
  }

  const busy = status === 'submitted' || status === 'streaming';
  const hasKey = useProviderHasKey(provider);
  const providerLabel = providers[provider].name;

  const sendOptions = (id: string, editOf?: string): LiveChatBody => {
    const chorus: ChatSendOptions = { conversationId: id, provider, settings };
    if (editOf) chorus.editOf = editOf;
    return { chorus };
  };

  /** Puts the text back in the box when the server refused it before answering. */
  const afterSend = (target: LiveChat, text: string) => {
    const refusedForKey = isApiError(target.error) && target.error.code === 'keys:missing';
    // The key notice was wrong either way round: a key appeared or disappeared meanwhile.
    if (refusedForKey === (hasKey !== false)) {
      void queryClient.invalidateQueries({ queryKey: keyAvailabilityQueryKey });
    }
    if (target.status === 'error' && isApiError(target.error)) {
      setDraft((current) => (current.trim() ? current : text));
    }
  };

  const send = async () => {
    const text = draft;
    if (!text.trim() || busy) return;
    if (conversationId) {
      setDraft('');
      const target = getLiveChat(await loadLiveChatModule(), conversationId);
      await target.sendMessage({ text }, { body: sendOptions(conversationId) });
      afterSend(target, text);
      return;
    }
    let conversation;
    try {
      conversation = await create.mutateAsync(titleFromText(text));
    } catch (cause) {
      toast.error(
        isApiError(cause) && cause.status === 429 && cause.retryAfterSeconds !== undefined
          ? messages.rateLimit.operation('Creating a chat', cause.retryAfterSeconds)
          : messages.chat.createFailed,
      );
      return;
    }
    queryClient.setQueryData<Message[]>(messagesQueryKey(conversation.id), []);
    const target = getLiveChat(await loadLiveChatModule(), conversation.id);
    setDraft('');
    setAdoptedId(conversation.id);
    const sending = target.sendMessage({ text }, { body: sendOptions(conversation.id) });
    void navigate(`/chat/${conversation.id}`, { replace: true });
    await sending;
    afterSend(target, text);
  };

  const stored = history.data;
  const actions = useRef({
    regenerate: async () => {},
    edit: async (_id: string, _text: string) => {},
  });
  useLayoutEffect(() => {
    actions.current = {
      regenerate: async () => {
        if (!conversationId || !stored || busy) return;
        const target = getLiveChat(await loadLiveChatModule(), conversationId);
        const lastUserIndex = stored.findLastIndex((message) => message.role === 'user');
        const lastUser = stored[lastUserIndex];
        if (!lastUser) return;
        // The server answers the last user message again in place of the old reply.
        queryClient.setQueryData<Message[]>(
          messagesQueryKey(conversationId),
          stored.slice(0, lastUserIndex + 1),
        );
        target.messages = [uiMessageFromStored(lastUser)];
        await target.regenerate({ body: sendOptions(conversationId) });
      },
      edit: async (messageId, text) => {
        if (!conversationId || !stored || busy) return;
        const target = getLiveChat(await loadLiveChatModule(), conversationId);
        const index = stored.findIndex((message) => message.id === messageId);
        if (index === -1) return;
        // The server drops the edited message and everything after it.
        queryClient.setQueryData<Message[]>(
          messagesQueryKey(conversationId),
          stored.slice(0, index),
        );
        target.messages = [];
        await target.sendMessage({ text }, { body: sendOptions(conversationId, messageId) });
      },
    };
  });
  const onRegenerate = useCallback(() => void actions.current.regenerate(), []);
  const onEdit = useCallback((id: string, text: string) => void actions.current.edit(id, text), []);

  // A live exchange hides its stored copy (a realtime refresh may load it mid-stream): the
  // stored ids travel in the reply's metadata, the live ones are the stream's own.
  const liveIds = useMemo(
    () =>
      new Set(
        live.flatMap((message) => [
          message.id,
          ...(message.metadata?.user_message_id ? [message.metadata.user_message_id] : []),
          ...(message.metadata?.assistant_message_id
            ? [message.metadata.assistant_message_id]
            : []),
        ]),
      ),
    [live],
  );
  const storedRows = useMemo(
    () => (stored ?? []).filter((message) => !liveIds.has(message.id)).map(rowFromMessage),
    [stored, liveIds],
  );
  const rows = useMemo(() => {
    const liveRows = live.map((message, index) =>
      rowFromLive(message, busy && index === live.length - 1 && message.role === 'assistant'),
    );
    const waiting = status === 'submitted' && live.at(-1)?.role !== 'assistant';
    return [...storedRows, ...liveRows, ...(waiting ? [pendingRow(provider)] : [])];
  }, [storedRows, live, busy, status, provider]);

  const last = rows.at(-1);
  const lastAssistantIndex = rows.findLastIndex((row) => row.role === 'assistant');
  const tailVersion = last ? `${last.id}:${last.content.length}:${last.status}` : '';

  const renderRow = (row: ChatRow, index: number) => (
    <div className="mx-auto max-w-3xl">
      <MessageItem
        row={row}
        canRegenerate={
          !busy && row.stored && index === lastAssistantIndex && index === rows.length - 1
        }
        canEdit={!busy && row.stored && row.role === 'user'}
        onRegenerate={onRegenerate}
        onEdit={onEdit}
      />
    </div>
  );

  const notFound = isApiError(history.error) && history.error.status === 404;
  const loading = Boolean(conversationId) && history.isPending;

  let body;
  if (notFound) {
    body = (
      <div className="flex flex-1 items-center justify-center p-6">
        <EmptyState
          icon={SearchX}
          title="This conversation does not exist"
          className="max-w-lg border-none"
          action={<LinkButton to="/chat">Start a new chat</LinkButton>}
        >
          It may have been deleted, or it belongs to another account.
        </EmptyState>
      </div>
    );
  } else if (loading) {
    body = (
      <div className="flex flex-1 items-center justify-center">
        <Spinner className="size-8" label="Loading messages" />
      </div>
    );
  } else if (history.isError) {
    body = (
      <p role="alert" className="m-6 text-sm text-destructive">
        {isApiError(history.error) && history.error.status === 401
          ? messages.auth.required
          : 'Could not load the messages of this conversation.'}
      </p>
    );
  } else if (rows.length === 0) {
    body = <WelcomeState providerLabel={providerLabel} />;
  } else {
    body = (
      <MessageList
        key={conversationId ?? 'new'}
        rows={rows}
        renderRow={renderRow}
        tailVersion={tailVersion}
        className="py-2"
      />
    );
  }

  return (
    <section aria-label="Chat" className="flex min-h-0 min-w-0 flex-col rounded-xl border bg-card">
      {liveModule && chat ? (
        <liveModule.LiveChatSubscriber chat={chat} onChange={setSnapshot} />
      ) : null}
      {body}
      <div className="grid gap-2 border-t p-3">
        {error && !busy ? (
          <ChatError error={error} providerLabel={providerLabel} />
        ) : hasKey === false ? (
          <MissingKeyNotice providerLabel={providerLabel} />
        ) : null}
        <Composer
          value={draft}
          onChange={setDraft}
          onSend={() => void send()}
          onStop={() => void chat?.stop()}
          busy={busy}
          disabled={loading || notFound || create.isPending}
          placeholder={`Message ${providerLabel}…`}
          toolbar={
            <ModelPicker
              provider={provider}
              onProviderChange={(next) => {
                chat?.clearError();
                setProvider(next);
              }}
              settings={settings}
              onSettingChange={providerSettings.update}
              onResetSettings={providerSettings.reset}
              disabled={busy}
            />
          }
        />
      </div>
    </section>
  );
};

export const ChatPage = () => {
  const { chatId } = useParams();
  return (
    <div className="grid h-[calc(100dvh-8.5rem)] min-h-[30rem] grid-cols-1 gap-4 md:grid-cols-[15rem_minmax(0,1fr)] lg:h-[calc(100dvh-10rem)]">
      <div className="hidden min-h-0 md:flex md:flex-col">
        <ConversationSidebar activeId={chatId} />
      </div>
      <ChatPane conversationId={chatId} />
    </div>
  );
};
