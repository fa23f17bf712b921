import { useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useNavigate } from 'react-router';
import type { Conversation, MessageAttachment } from '@chorus/shared/api/conversations';
import { messages } from '@chorus/shared/messages';
import type { ProviderId } from '@chorus/shared/providers';
import { api } from '@/lib/api-client';
import { errorMessage, isApiError } from '@/lib/api-error';
import { useComposerAttachments } from '@/lib/chat/attachments';
import {
  attachmentPart,
  mergeRows,
  rowFromMessage,
  rowFromUnsent,
  uiMessageFromStored,
} from '@/lib/chat/chat-rows';
import { describeSendFailure } from '@/lib/chat/describe-chat-error';
import { drafts, newThread, sentHistory } from '@/lib/chat/drafts';
import { unsentMessages } from '@/lib/chat/unsent';
import type { LiveChat, LiveSnapshot } from '@/lib/chat/live-chat';
import type { ProviderSettings } from '@/lib/chat/provider-settings';
import { loadLiveChatModule, useLiveChatModule } from '@/lib/chat/use-live-chat';
import { keyAvailabilityQueryKey } from '@/lib/queries/key-availability';
import {
  historyMessages,
  historyOf,
  messagesQueryKey,
  selectMessageVersion,
  showVersionInHistory,
  truncateHistory,
  useMessages,
} from '@/lib/queries/messages';
import { isRateLimitError, RateLimitedError } from '@/lib/resilience/rate-limit-error';
import { waitBeforeCall } from '@/lib/resilience/runtime';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { isOnline } from '@/lib/use-online';
import { titleFromText, useCreateConversation } from '../api/create-conversation';
import type { ChatSendOptions } from './chat-request';
import { pendingCustomAi, showConversationCustomAi } from './conversation-custom-ai';
import { pendingKnowledgeBases, showConversation } from './conversation-knowledge';
import { pendingSystemPrompt } from './system-prompt';
import { useConversationChats, type ConversationChatBody } from './conversation-chat';

const noMessages: LiveSnapshot['messages'] = [];

/** A rate-limited action, said once under the composer until it may go again. */
export type RateLimitNotice = { operation: string; until: number };

const createPath = { method: 'POST', path: '/rest/v1/conversations' } as const;

type ConversationChatInput = {
  conversationId: string | undefined;
  provider: ProviderId;
  settings: ProviderSettings;
  /** Whether a key would serve `provider` (undefined: not known yet). */
  hasKey: boolean | undefined;
  /** The custom AI the conversation talks to (then `provider` is its provider); null for none. */
  customAiId: string | null;
};

/**
 * What was picked for a new chat before it existed (its knowledge bases, its custom AI), set on
 * the conversation just created. Answers the conversation as the server then has it, or null
 * when that failed (said in a toast): the chat goes on without them.
 */
const applyPendingSettings = async (conversationId: string): Promise<Conversation | null> => {
  const bases = pendingKnowledgeBases.get();
  const customAiId = pendingCustomAi.get();
  if (bases.length === 0 && !customAiId) return null;
  const patch: { knowledge_base_ids?: string[]; custom_ai_id?: string } = {};
  if (bases.length > 0) patch.knowledge_base_ids = bases;
  if (customAiId) patch.custom_ai_id = customAiId;
  try {
    return await api.patch<Conversation>(
      `/rest/v1/conversations/${encodeURIComponent(conversationId)}`,
      patch,
    );
  } catch (cause) {
    let what = 'The knowledge bases were not attached to this chat';
    if (customAiId) {
      what =
        bases.length > 0
          ? 'The custom AI and the knowledge bases were not set for this chat'
          : 'The custom AI was not set for this chat';
    }
    toast.error(what, { description: errorMessage(cause) });
    return null;
  }
};

/**
 * One conversation in the chat engine: its stored history (newest page first, older pages on
 * demand), the exchange streaming now, and send, stop, regenerate and edit. A first message on
 * /chat creates the conversation and moves the URL to /chat/{id} while its reply streams.
 */
export const useConversationChat = ({
  conversationId,
  provider,
  settings,
  hasKey,
  customAiId,
}: ConversationChatInput) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const getLiveChat = useConversationChats();
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
  const userId = useSession().user?.id ?? '';
  const threadId = conversationId ?? newThread;
  const [draft, setDraftState] = useState(() => drafts.read(userId, threadId));
  const [rateLimit, setRateLimit] = useState<RateLimitNotice | null>(null);
  const unsent = useSyncExternalStore(unsentMessages.subscribe, () =>
    unsentMessages.list(userId, threadId),
  );
  const attachments = useComposerAttachments();

  // The composer's text is kept per conversation in this browser, so a reload keeps it.
  const setDraft = useCallback(
    (text: string) => {
      setDraftState(text);
      drafts.write(userId, threadId, text);
    },
    [userId, threadId],
  );

  // A new chat becomes /chat/{id} on its first message: keep the pane's state through that.
  const [shownId, setShownId] = useState(conversationId);
  const [adoptedId, setAdoptedId] = useState<string | null>(null);
  if (shownId !== conversationId) {
    setShownId(conversationId);
    setRateLimit(null);
    // Only that one move is adopted: coming back to the chat later reads its own draft.
    if (conversationId === adoptedId) setAdoptedId(null);
    else {
      setDraftState(drafts.read(userId, threadId));
      attachments.clear();
    }
  }

  const busy = status === 'submitted' || status === 'streaming';

  const sendBody = (
    id: string,
    editOf?: string,
    promptId?: string,
    files: MessageAttachment[] = [],
    persona: string | null = customAiId,
  ): { body: ConversationChatBody } => {
    const options: ChatSendOptions = { conversationId: id, provider, settings };
    if (persona) options.customAiId = persona;
    if (editOf) options.editOf = editOf;
    if (promptId) options.promptId = promptId;
    if (files.length > 0) options.attachmentIds = files.map((file) => file.id);
    return { body: { options } };
  };

  // The saved prompt the composer's text came from (the `/` picker), until it is sent or cleared.
  const promptInDraft = useRef<string | null>(null);
  const insertPrompt = useCallback(
    (text: string, promptId: string) => {
      promptInDraft.current = promptId;
      setDraft(text);
    },
    [setDraft],
  );
  const editDraft = useCallback(
    (text: string) => {
      if (!text.trim()) promptInDraft.current = null;
      setDraft(text);
    },
    [setDraft],
  );

  /** Notes a refusal for lack of a key, which the notice above the composer may have missed. */
  const afterSend = (target: LiveChat) => {
    const refusedForKey = isApiError(target.error) && target.error.code === 'keys:missing';
    // The key notice was wrong either way round: a key appeared or disappeared meanwhile.
    if (refusedForKey === (hasKey !== false)) {
      void queryClient.invalidateQueries({ queryKey: keyAvailabilityQueryKey });
    }
  };

  /** Keeps a message that did not reach the server, marked "Not sent", in its chat. */
  const keepUnsent = (thread: string, id: string, text: string, error: unknown) => {
    const failure = describeSendFailure(error, isOnline());
    unsentMessages.add(userId, thread, { id, text, ...failure, at: Date.now() });
  };

  /** Sends `text` (and stored `files`) as message `id` to a conversation that exists. */
  const sendTo = async (
    id: string,
    messageId: string,
    text: string,
    promptId?: string,
    files: MessageAttachment[] = [],
    persona: string | null = customAiId,
  ) => {
    const target = getLiveChat(await loadLiveChatModule(), id);
    await target.sendMessage(
      {
        id: messageId,
        role: 'user',
        parts: [{ type: 'text', text }, ...files.map(attachmentPart)],
      },
      sendBody(id, undefined, promptId, files, persona),
    );
    afterSend(target);
  };

  /** The composer's stored files go with its text; they belong to that message from now on. */
  const takeFiles = (fromComposer: boolean): MessageAttachment[] => {
    if (!fromComposer) return [];
    const files = attachments.ready;
    attachments.clear();
    return files;
  };

  /**
   * Sends a message: the one in the composer, or a "Not sent" one again under its own id. It
   * never loses the text: offline or failed, it stays as a "Not sent" bubble to retry or edit;
   * when starting a chat is rate-limited, it stays in the composer with a notice of when to try.
   */
  const sendText = async (text: string, messageId: string, fromComposer: boolean) => {
    if (!text.trim() || busy) return;
    if (fromComposer) sentHistory.add(userId, text);
    const promptId = fromComposer ? (promptInDraft.current ?? undefined) : undefined;
    if (fromComposer) promptInDraft.current = null;
    unsentMessages.remove(userId, threadId, [messageId]);
    if (!conversationId) {
      const wait = waitBeforeCall(createPath);
      if (wait > 0) {
        if (!fromComposer) keepUnsent(newThread, messageId, text, new RateLimitedError(wait));
        setRateLimit({ operation: 'Creating a chat', until: Date.now() + wait });
        return;
      }
    }
    if (!isOnline()) {
      keepUnsent(threadId, messageId, text, undefined);
      if (fromComposer) setDraft('');
      return;
    }
    if (conversationId) {
      if (fromComposer) setDraft('');
      await sendTo(conversationId, messageId, text, promptId, takeFiles(fromComposer));
      return;
    }
    let conversation;
    try {
      conversation = await create.mutateAsync({
        title: titleFromText(text),
        systemPrompt: pendingSystemPrompt.get(),
      });
      pendingSystemPrompt.set('');
    } catch (cause) {
      if (isRateLimitError(cause)) {
        const seconds = isApiError(cause) ? (cause.retryAfterSeconds ?? 10) : 10;
        if (!fromComposer) keepUnsent(newThread, messageId, text, cause);
        setRateLimit({ operation: 'Creating a chat', until: Date.now() + seconds * 1000 });
        return;
      }
      // Refused outright (not a network or server failure): the spec's words for it.
      const refused = isApiError(cause) && cause.status >= 400 && cause.status < 500;
      keepUnsent(
        newThread,
        messageId,
        text,
        refused ? new Error(messages.chat.createFailed) : cause,
      );
      if (fromComposer) setDraft('');
      return;
    }
    queryClient.setQueryData(messagesQueryKey(conversation.id), historyOf([]));
    if (fromComposer) setDraft('');
    const files = takeFiles(fromComposer);
    // The create request cannot carry them: the knowledge bases and the custom AI picked for the
    // new chat are set before its first message, whose reply uses them.
    const settled = await applyPendingSettings(conversation.id);
    if (settled) {
      showConversation(queryClient, settled);
      showConversationCustomAi(queryClient, settled);
    }
    pendingKnowledgeBases.set([]);
    setAdoptedId(conversation.id);
    const sending = sendTo(
      conversation.id,
      messageId,
      text,
      promptId,
      files,
      settled?.custom_ai_id ?? null,
    );
    void navigate(`/chat/${conversation.id}`, { replace: true });
    pendingCustomAi.set(null);
    await sending;
  };

  const send = () => sendText(draft, crypto.randomUUID(), true);
  /** Sends a text that is not the composer's (a custom AI's conversation starter). */
  const sendStarter = (text: string) => sendText(text, crypto.randomUUID(), false);

  const retryUnsentNow = (id: string) => {
    const message = unsent.find((m) => m.id === id);
    if (message) void sendText(message.text, message.id, false);
  };

  /** Takes a "Not sent" message back into the composer (what was there is kept after it). */
  const editUnsentNow = (id: string) => {
    const message = unsent.find((m) => m.id === id);
    if (!message) return;
    unsentMessages.remove(userId, threadId, [id]);
    setDraft(draft.trim() ? `${message.text}\n\n${draft}` : message.text);
  };

  // The rows hold these: the same functions every render, reading the newest state.
  const unsentRef = useRef({ retry: retryUnsentNow, edit: editUnsentNow });
  useLayoutEffect(() => {
    unsentRef.current = { retry: retryUnsentNow, edit: editUnsentNow };
  });
  const retryUnsent = useCallback((id: string) => unsentRef.current.retry(id), []);
  const editUnsent = useCallback((id: string) => unsentRef.current.edit(id), []);
  const discardUnsent = useCallback(
    (id: string) => unsentMessages.remove(userId, threadId, [id]),
    [userId, threadId],
  );
  const clearRateLimit = useCallback(() => setRateLimit(null), []);
  const recall = useCallback(() => sentHistory.read(userId), [userId]);

  const stored = useMemo(() => historyMessages(history.data), [history.data]);
  // Regenerate and edit read the newest state through a ref, so the callbacks the rows hold stay
  // the same and the list does not re-render every message for each token.
  const actions = useRef({
    regenerate: async () => {},
    edit: async (_id: string, _t: string) => {},
  });
  useLayoutEffect(() => {
    actions.current = {
      regenerate: async () => {
        if (!conversationId || busy) return;
        const lastUser = stored.findLast((message) => message.role === 'user');
        if (!lastUser) return;
        const target = getLiveChat(await loadLiveChatModule(), conversationId);
        // The server answers the last user message again in place of the old reply.
        truncateHistory(queryClient, conversationId, lastUser.id, false);
        target.messages = [uiMessageFromStored(lastUser)];
        await target.regenerate(sendBody(conversationId));
      },
      edit: async (messageId, text) => {
        if (!conversationId || busy) return;
        const target = getLiveChat(await loadLiveChatModule(), conversationId);
        // The server drops the edited message and everything after it.
        truncateHistory(queryClient, conversationId, messageId, true);
        target.messages = [];
        await target.sendMessage({ text }, sendBody(conversationId, messageId));
      },
    };
  });
  const regenerate = useCallback(() => void actions.current.regenerate(), []);
  const stop = useCallback(() => void chat?.stop(), [chat]);
  // ‹ › under a regenerated answer: the picked version becomes the current one on the server too,
  // so the next message follows on from the answer on screen.
  const selectVersion = useCallback(
    (messageId: string) => {
      if (!conversationId) return;
      selectMessageVersion(messageId).then(
        (message) => showVersionInHistory(queryClient, conversationId, message),
        (error: unknown) =>
          toast.error(
            isApiError(error) ? error.message : 'That version could not be shown. Try again.',
          ),
      );
    },
    [conversationId, queryClient],
  );
  const edit = useCallback((id: string, text: string) => void actions.current.edit(id, text), []);

  // A "Not sent" message the server turns out to have (its answer was lost) is not shown twice.
  useEffect(() => {
    const known = new Set(stored.map((message) => message.id));
    const arrived = unsent.filter((message) => known.has(message.id)).map((m) => m.id);
    if (arrived.length > 0) unsentMessages.remove(userId, threadId, arrived);
  }, [stored, unsent, userId, threadId]);

  const storedRows = useMemo(() => stored.map(rowFromMessage), [stored]);
  const unsentRows = useMemo(() => unsent.map(rowFromUnsent), [unsent]);
  const rows = useMemo(
    () =>
      mergeRows({
        stored: storedRows,
        live,
        busy,
        waiting: status === 'submitted',
        provider,
        unsent: unsentRows,
      }),
    [storedRows, live, busy, status, provider, unsentRows],
  );

  const { fetchNextPage } = history;
  const loadOlder = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const older = useMemo(
    () => ({
      hasOlder: history.hasNextPage,
      loadingOlder: history.isFetchingNextPage,
      loadOlder,
    }),
    [history.hasNextPage, history.isFetchingNextPage, loadOlder],
  );

  return {
    rows,
    busy,
    error,
    history,
    older,
    draft,
    setDraft: editDraft,
    insertPrompt,
    creating: create.isPending,
    attachments,
    rateLimit,
    clearRateLimit,
    recall,
    send,
    sendStarter,
    retryUnsent,
    editUnsent,
    discardUnsent,
    stop,
    clearError: () => chat?.clearError(),
    regenerate,
    edit,
    selectVersion,
    /** Render `<liveModule.LiveChatSubscriber chat onChange />` to follow the stream. */
    subscription: liveModule && chat ? { module: liveModule, chat, onChange: setSnapshot } : null,
  };
};
