import { MessageSquare, Pin, SearchX } from 'lucide-react';
import { useCallback, useEffect, useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { messages } from '@chorus/shared/messages';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { Prompt } from '@chorus/shared/api/prompts';
import { providers } from '@chorus/shared/providers';
import { MissingKeyNotice, OfflineNotice, RateLimitNotice } from '@/components/chat/chat-notices';
import { ChatView } from '@/components/chat/chat-view';
import { Composer } from '@/components/chat/composer';
import { ModelPicker } from '@/components/chat/model-picker';
import type { ReplyPersona } from '@/components/chat/reply-persona';
import { CustomAiAvatar } from '@/components/custom-ais/custom-ai-avatar';
import { usePromptPicker } from '@/components/prompts/use-prompt-picker';
import {
  ConversationActions,
  useShareDialog,
} from '@/components/conversations/conversation-actions';
import { EmptyState } from '@/components/ui/empty-state';
import { LinkButton } from '@/components/ui/link-button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useProviderSettings } from '@/lib/chat/provider-settings';
import { prefetchLiveChat } from '@/lib/chat/use-live-chat';
import { useListedConversation } from '@/lib/queries/conversations';
import { useCustomAiForChat } from '@/lib/queries/custom-ais';
import { getPrompt } from '@/lib/queries/prompts';
import { useProviderHasKey } from '@/lib/queries/key-availability';
import { focusWhenReady } from '@/lib/focus-when-ready';
import { isStopShortcut } from '@/lib/shortcuts';
import type { Agent } from '@chorus/shared/api/agents';
import { AgentApprovalsContext } from '@/components/chat/agent-approvals';
import { api } from '@/lib/api-client';
import { useAgentApprovalsState } from '../hooks/use-agent-approvals';
import { toast } from '@/lib/toast';
import { useOnline } from '@/lib/use-online';
import { cn } from '@/lib/utils';
import { pendingCustomAi, useConversationCustomAi } from '../hooks/conversation-custom-ai';
import { useConversationChat } from '../hooks/use-conversation-chat';
import { useJumpToMessage } from '../hooks/use-jump-to-message';
import { useChatFeature } from './chat-context';
import { JumpNotice } from './jump-notice';
import { KnowledgePicker } from './knowledge-picker';
import { SystemPromptButton } from './system-prompt-button';

const WelcomeState = ({ providerLabel }: { providerLabel: string }) => (
  <div className="flex flex-1 items-center justify-center p-6">
    <EmptyState icon={MessageSquare} title="Start a conversation" className="max-w-lg border-none">
      Write a message below and press Enter. {providerLabel} answers with the model chosen under the
      box; switch provider or model at any time. Replies use your own API key for the provider, or
      the workspace&apos;s default or system key.{' '}
      <Link to="/copy-api-keys" className="text-primary underline underline-offset-4">
        Manage API keys
      </Link>
      <span className="mt-2 block">
        Type <kbd className="rounded border px-1 font-sans">/</kbd> to insert a prompt from your{' '}
        <Link to="/prompts" className="text-primary underline underline-offset-4">
          prompt library
        </Link>
        .
      </span>
    </EmptyState>
  </div>
);

/** An empty chat with a custom AI: who it is, and its conversation starters to send. */
const CustomAiWelcome = ({
  customAi,
  onStarter,
  disabled,
}: {
  customAi: CustomAi;
  onStarter: (text: string) => void;
  disabled: boolean;
}) => (
  <div className="flex flex-1 items-center justify-center overflow-y-auto p-6">
    <section
      aria-label={`Start a conversation with ${customAi.name}`}
      className="flex w-full max-w-xl flex-col items-center text-center"
    >
      <CustomAiAvatar name={customAi.name} avatar={customAi.avatar} size="lg" />
      <h2 className="mt-3 text-lg font-semibold">{customAi.name}</h2>
      <p className="mt-1 max-w-prose text-sm text-muted-foreground">
        {customAi.description ||
          `A custom AI on ${providers[customAi.provider].name}, with its own instructions.`}
      </p>
      {customAi.starters.length > 0 ? (
        <ul aria-label="Conversation starters" className="mt-6 grid w-full gap-2 sm:grid-cols-2">
          {customAi.starters.map((starter) => (
            <li key={starter} className="grid">
              <button
                type="button"
                disabled={disabled}
                onClick={() => onStarter(starter)}
                className="rounded-lg border bg-background p-3 text-left text-sm transition-colors hover:bg-muted disabled:opacity-50"
              >
                {starter}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-muted-foreground">Write a message below and press Enter.</p>
      )}
    </section>
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
/** The composer's message box (composer.tsx). */
const composerId = 'chat-composer';
const focusProviderPicker = () => document.getElementById(providerSelectId)?.focus();

/**
 * `/chat?prompt={id}` (the prompt library's "Use in chat"): opens that prompt's fill-in form
 * over a new chat, then drops the parameter so a reload does not open it again.
 */
const useUsePromptParam = (fill: (prompt: Prompt) => void) => {
  const [searchParams, setSearchParams] = useSearchParams();
  const promptId = searchParams.get('prompt');
  useEffect(() => {
    if (!promptId) return;
    const controller = new AbortController();
    getPrompt(promptId, controller.signal).then(
      (prompt) => {
        setSearchParams({}, { replace: true });
        fill(prompt);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setSearchParams({}, { replace: true });
        toast.error('Could not open the prompt', { description: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [promptId, fill, setSearchParams]);
};

/**
 * `/chat?agent={id}` (the Agents page's "Chat with it"): a new chat whose message starts with the
 * agent's `@handle`, which hands the turn to it; the parameter is dropped.
 */
const useAgentParam = (setDraft: (text: string) => void) => {
  const [searchParams, setSearchParams] = useSearchParams();
  const agentId = searchParams.get('agent');
  useEffect(() => {
    if (!agentId) return;
    const controller = new AbortController();
    api.get<Agent>(`/rest/v1/agents/${encodeURIComponent(agentId)}`, controller.signal).then(
      (agent) => {
        setSearchParams({}, { replace: true });
        setDraft(`@${agent.handle} `);
        focusWhenReady(composerId);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setSearchParams({}, { replace: true });
        toast.error('Could not open the agent', { description: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [agentId, setDraft, setSearchParams]);
};

/**
 * `/chat?custom_ai={id}` (the Custom AIs page's "Start a chat"): a new chat with that custom AI
 * chosen; the parameter is dropped, as the choice now shows in the model picker.
 */
const useCustomAiParam = (conversationId: string | undefined) => {
  const [searchParams, setSearchParams] = useSearchParams();
  const customAiId = searchParams.get('custom_ai');
  useEffect(() => {
    if (!customAiId) return;
    if (!conversationId) pendingCustomAi.set(customAiId);
    setSearchParams({}, { replace: true });
  }, [customAiId, conversationId, setSearchParams]);
};

/**
 * The custom AI the conversation talks to, its choice, and what the chat then uses: its provider.
 * One that is gone (deleted, or no longer shared) is not sent: the chat goes back to its model.
 */
const useChatCustomAi = (conversationId: string | undefined) => {
  useCustomAiParam(conversationId);
  const choice = useConversationCustomAi(conversationId);
  // One of the user's, or a published one of someone else (from /discover).
  const { customAi, customAis, gone } = useCustomAiForChat(choice.id);
  const id = gone ? null : choice.id;
  const persona = useMemo<ReplyPersona | undefined>(
    () =>
      customAi
        ? {
            name: customAi.name,
            avatar: customAi.avatar,
            provider: customAi.provider,
            model: customAi.model,
          }
        : undefined,
    [customAi],
  );
  const { save } = choice;
  const change = useCallback(
    (next: string | null) => {
      save(next).catch((error: unknown) =>
        toast.error(
          next ? 'This chat could not switch to the custom AI' : 'This chat could not switch back',
          { description: errorMessage(error) },
        ),
      );
    },
    [save],
  );
  return { id, customAi, customAis, persona, change };
};

/** One conversation (or a new one, on /chat) in the chat engine, with its composer. */
const ChatPane = ({ conversationId }: { conversationId: string | undefined }) => {
  const { provider: chosenProvider, setProvider } = useChatFeature();
  const providerSettings = useProviderSettings(chosenProvider);
  const { settings } = providerSettings;
  const custom = useChatCustomAi(conversationId);
  const { customAi } = custom;
  // A custom AI answers with its own provider: its key is the one the chat needs.
  const provider = customAi?.provider ?? chosenProvider;
  const hasKey = useProviderHasKey(provider);
  const providerLabel = providers[provider].name;
  const speaker = customAi?.name ?? providerLabel;
  const chat = useConversationChat({
    conversationId,
    provider,
    settings,
    hasKey,
    customAiId: custom.id,
  });
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
  } else if (rows.length === 0 && customAi) {
    placeholder = (
      <CustomAiWelcome
        customAi={customAi}
        onStarter={(text) => void chat.sendStarter(text)}
        disabled={busy || chat.creating}
      />
    );
  } else if (rows.length === 0) placeholder = <WelcomeState providerLabel={providerLabel} />;

  // Opening a conversation puts the cursor in its message box, on devices with a keyboard (on a
  // phone, focus would pop the on-screen keyboard over the messages).
  useEffect(() => {
    if (!conversationId || !window.matchMedia('(pointer: fine)').matches) return;
    return focusWhenReady(composerId);
  }, [conversationId]);
  // Escape stops the reply being written (a dialog or menu open takes its own Escape).
  const { stop } = chat;
  useEffect(() => {
    if (!busy) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isStopShortcut(event)) return;
      event.preventDefault();
      stop();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [busy, stop]);

  const { insertPrompt } = chat;
  const picker = usePromptPicker({
    draft: chat.draft,
    onInsert: (text, prompt) => {
      insertPrompt(text, prompt.id);
      focusWhenReady(composerId);
    },
  });
  useUsePromptParam(picker.fill);
  useAgentParam(chat.setDraft);
  const agentRuns = useAgentApprovalsState(conversationId);
  const shownRows = useMemo(() => agentRuns.overlay(rows), [agentRuns, rows]);

  const sub = chat.subscription;
  return (
    <AgentApprovalsContext.Provider value={agentRuns.approvals}>
      {sub ? <sub.module.LiveChatSubscriber chat={sub.chat} onChange={sub.onChange} /> : null}
      <ChatView
        rows={shownRows}
        busy={busy}
        placeholder={placeholder}
        older={chat.older}
        onRegenerate={chat.regenerate}
        onEdit={chat.edit}
        unsentActions={unsentActions}
        onSwitchModel={focusProviderPicker}
        onSelectVersion={chat.selectVersion}
        threadKey={conversationId ?? 'new'}
        focusRow={jump.focusRow}
        persona={custom.persona}
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
              placeholder={`Message ${speaker}…`}
              onIntent={prefetchLiveChat}
              recall={chat.recall}
              onListKey={picker.onKeyDown}
              listProps={picker.textboxProps}
              above={picker.list}
              attachments={chat.attachments}
              toolbar={
                <div className="flex flex-wrap items-center gap-1">
                  <ModelPicker
                    provider={chosenProvider}
                    onProviderChange={(next) => {
                      chat.clearError();
                      setProvider(next);
                    }}
                    customAis={custom.customAis}
                    customAiId={custom.id}
                    onCustomAiChange={(next) => {
                      chat.clearError();
                      custom.change(next);
                    }}
                    settings={settings}
                    onSettingChange={providerSettings.update}
                    onResetSettings={providerSettings.reset}
                    disabled={busy}
                    providerSelectId={providerSelectId}
                  />
                  <SystemPromptButton conversationId={conversationId} disabled={busy} />
                  <KnowledgePicker conversationId={conversationId} disabled={busy} />
                </div>
              }
            />
            {picker.dialog}
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
    </AgentApprovalsContext.Provider>
  );
};

/**
 * The chat fills the workspace beside its sidebar (where the conversations are listed). An open
 * conversation the list knows has a slim header: its title, and its menu (pin, export, share).
 * Otherwise the page's heading is for screen readers only.
 */
export const ChatPage = () => {
  const { chatId } = useParams();
  const conversation = useListedConversation(chatId);
  const sharing = useShareDialog();
  const title = conversation ? conversation.title || messages.chat.defaultTitle : undefined;
  return (
    <div
      className={cn(
        'grid h-full gap-2 p-2 sm:p-3 lg:p-4',
        conversation ? 'grid-rows-[auto_minmax(0,1fr)]' : 'grid-rows-[minmax(0,1fr)]',
      )}
    >
      {conversation ? (
        <header className="flex min-w-0 items-center gap-1.5 px-1">
          {conversation.pinned_at ? (
            <Pin aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
          ) : null}
          <h1 className="min-w-0 flex-1 truncate text-sm font-medium">{title}</h1>
          <ConversationActions
            conversation={conversation}
            onShare={() => sharing.share(conversation)}
            className="size-8"
          />
          {sharing.dialog}
        </header>
      ) : (
        <h1 className="sr-only">{chatId ? 'Conversation' : 'New chat'}</h1>
      )}
      <ChatPane conversationId={chatId} />
    </div>
  );
};
