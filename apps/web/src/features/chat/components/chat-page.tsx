import { MessageSquare, SearchX } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { messages } from '@chorus/shared/messages';
import { providers } from '@chorus/shared/providers';
import { MissingKeyNotice, OfflineNotice, RateLimitNotice } from '@/components/chat/chat-notices';
import { ChatView } from '@/components/chat/chat-view';
import { Composer } from '@/components/chat/composer';
import { ModelPicker } from '@/components/chat/model-picker';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-error';
import { useProviderSettings } from '@/lib/chat/provider-settings';
import { prefetchLiveChat } from '@/lib/chat/use-live-chat';
import { useConversationTitle } from '@/lib/queries/conversations';
import { useProviderHasKey } from '@/lib/queries/key-availability';
import { useOnline } from '@/lib/use-online';
import { useConversationChat } from '../hooks/use-conversation-chat';
import { useJumpToMessage } from '../hooks/use-jump-to-message';
import { useChatFeature } from './chat-context';
import { JumpNotice } from './jump-notice';

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

const NotFound = () => (
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

const providerSelectId = 'chat-provider';
const focusProviderPicker = () => document.getElementById(providerSelectId)?.focus();

/** One conversation (or a new one, on /chat) in the chat engine, with its composer. */
const ChatPane = ({ conversationId }: { conversationId: string | undefined }) => {
  const { provider, setProvider } = useChatFeature();
  const providerSettings = useProviderSettings(provider);
  const { settings } = providerSettings;
  const hasKey = useProviderHasKey(provider);
  const providerLabel = providers[provider].name;
  const chat = useConversationChat({ conversationId, provider, settings, hasKey });
  const { history, rows, busy } = chat;
  const [searchParams] = useSearchParams();
  const messageId = conversationId ? searchParams.get('message') : null;
  const jump = useJumpToMessage({ messageId, rows, history });
  const online = useOnline();
  const { retryUnsent, editUnsent, discardUnsent, clearRateLimit } = chat;
  const unsentActions = useMemo(
    () => ({ retry: retryUnsent, edit: editUnsent, discard: discardUnsent }),
    [retryUnsent, editUnsent, discardUnsent],
  );

  const notFound = isApiError(history.error) && history.error.status === 404;
  const loading = Boolean(conversationId) && history.isPending;
  let placeholder;
  if (notFound) placeholder = <NotFound />;
  else if (loading) {
    placeholder = (
      <div className="flex flex-1 items-center justify-center">
        <Spinner className="size-8" label="Loading messages" />
      </div>
    );
  } else if (history.isError && !history.data) {
    // A failed refetch (offline, say) keeps what is shown; only a first load that failed says so.
    placeholder = (
      <p role="alert" className="m-6 text-sm text-destructive">
        {isApiError(history.error) && history.error.status === 401
          ? messages.auth.required
          : 'Could not load the messages of this conversation.'}
      </p>
    );
  } else if (rows.length === 0) placeholder = <WelcomeState providerLabel={providerLabel} />;

  const sub = chat.subscription;
  return (
    <>
      {sub ? <sub.module.LiveChatSubscriber chat={sub.chat} onChange={sub.onChange} /> : null}
      <ChatView
        rows={rows}
        busy={busy}
        placeholder={placeholder}
        older={chat.older}
        onRegenerate={chat.regenerate}
        onEdit={chat.edit}
        unsentActions={unsentActions}
        onSwitchModel={focusProviderPicker}
        threadKey={conversationId ?? 'new'}
        focusRow={jump.focusRow}
        footer={
          <>
            <JumpNotice state={jump.state} />
            {!online ? (
              <OfflineNotice />
            ) : hasKey === false ? (
              <MissingKeyNotice providerLabel={providerLabel} />
            ) : null}
            <Composer
              value={chat.draft}
              onChange={chat.setDraft}
              onSend={() => void chat.send()}
              onStop={chat.stop}
              busy={busy}
              disabled={loading || notFound || chat.creating}
              placeholder={`Message ${providerLabel}…`}
              onIntent={prefetchLiveChat}
              recall={chat.recall}
              toolbar={
                <ModelPicker
                  provider={provider}
                  onProviderChange={(next) => {
                    chat.clearError();
                    setProvider(next);
                  }}
                  settings={settings}
                  onSettingChange={providerSettings.update}
                  onResetSettings={providerSettings.reset}
                  disabled={busy}
                  providerSelectId={providerSelectId}
                />
              }
            />
            {chat.rateLimit ? (
              <RateLimitNotice
                key={chat.rateLimit.until}
                operation={chat.rateLimit.operation}
                until={chat.rateLimit.until}
                onEnd={clearRateLimit}
              />
            ) : null}
          </>
        }
      />
    </>
  );
};

/**
 * The chat fills the workspace beside its sidebar (where the conversations are listed). The page's
 * heading is for screen readers: the open conversation's title, or that a new chat starts here.
 */
export const ChatPage = () => {
  const { chatId } = useParams();
  const title = useConversationTitle(chatId);
  return (
    <div className="grid h-full grid-rows-[minmax(0,1fr)] p-2 sm:p-3 lg:p-4">
      <h1 className="sr-only">{chatId ? (title ?? 'Conversation') : 'New chat'}</h1>
      <ChatPane conversationId={chatId} />
    </div>
  );
};
