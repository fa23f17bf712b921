import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  streamText,
  type ModelMessage,
} from 'ai';
import type { ChatMessageMetadata, Source } from '@chorus/shared/api/conversations';
import { providers, resolveModel } from '@chorus/shared/providers';
import { ConversationsRepository } from '../../../db/repositories/conversations.ts';
import { MessagesRepository, type MessageRow } from '../../../db/repositories/messages.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { getLanguageModel } from '../../../providers/registry.ts';
import { resolveProviderKey } from '../../keys/resolve-key.ts';
import { messageChange } from '../../realtime/changes.ts';
import { conversationNotFound } from '../../rest/conversations/conversation-not-found.ts';
import { chatRoute } from './chat.routes.ts';
import { describeProviderError } from '../../../providers/provider-errors.ts';
import { chargePrompt, usageRecorder } from '../../../quota/quota.ts';

/** How many earlier messages go to the model with each turn. */
const CONTEXT_MESSAGES = 100;
/** How often the partial reply is written while it streams (what survives a crash). */
const FLUSH_INTERVAL_MS = 1_000;

const toModelMessages = (rows: MessageRow[]): ModelMessage[] =>
  rows
    .filter((m) => m.content.trim() !== '')
    .map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant', content: m.content }
        : m.role === 'system'
          ? { role: 'system', content: m.content }
          : { role: 'user', content: m.content },
    );

/**
 * Writes the reply as it grows, one write at a time, at most once per interval; the last write
 * (finish, stop or failure) always lands after every partial one.
 */
const replyWriter = (
  repo: MessagesRepository,
  id: string,
  onError: (e: unknown) => void,
  onFinished: () => Promise<void>,
) => {
  let text = '';
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const enqueue = (patch: Parameters<MessagesRepository['update']>[1]) => {
    chain = chain.then(() => repo.update(id, patch)).catch(onError);
    return chain;
  };
  return {
    append(delta: string) {
      text += delta;
      timer ??= setTimeout(() => {
        timer = undefined;
        void enqueue({ content: text });
      }, FLUSH_INTERVAL_MS);
    },
    get text() {
      return text;
    },
    /** The first outcome wins: finish, stop and failure can each report the end. */
    finish(patch: Parameters<MessagesRepository['update']>[1]) {
      if (finished) return chain;
      finished = true;
      clearTimeout(timer);
      timer = undefined;
      return enqueue({ content: text, ...patch }).then(onFinished);
    },
  };
};

export const chatRouter = createRouter<AuthedEnv>().openapi(chatRoute, async (c) => {
  const { deps, user } = c.var;
  const { db } = deps.database;
  const body = c.req.valid('json');
  const conversations = new ConversationsRepository(db, user.id);
  const messages = new MessagesRepository(db, user.id);

  const conversation = await conversations.get(body.conversation_id);
  if (!conversation) throw conversationNotFound();

  const key = await resolveProviderKey({
    db,
    box: deps.box,
    userId: user.id,
    provider: body.provider,
    log: deps.log,
  });
  const providerName = providers[body.provider].name;
  if (!key) {
    throw new ApiError(
      400,
      'keys:missing',
      `No ${providerName} API key is available to you. Add one on the API keys page, or pick another provider.`,
    );
  }
  const model = resolveModel(body.provider, body.model);

  // What the request refers to is checked before the plan is charged: a request that cannot
  // run costs no prompt.
  let userMessage: MessageRow | undefined;
  let edited: MessageRow | undefined;
  if (body.regenerate) {
    userMessage = await messages.lastOfRole(conversation.id, 'user');
    if (!userMessage)
      throw new ApiError(
        400,
        'chat:nothing_to_regenerate',
        'There is no message to answer again yet.',
      );
  } else if (body.edit_of) {
    edited = await messages.get(body.edit_of);
    if (!edited || edited.conversation_id !== conversation.id || edited.role !== 'user') {
      throw new ApiError(
        404,
        'chat:message_not_found',
        'The message to edit does not exist in this conversation.',
      );
    }
  }

  // The plan is checked and the prompt counted before anything is stored or sent.
  await chargePrompt({ db, userId: user.id, provider: body.provider, model });
  const recordUsage = usageRecorder({
    db,
    userId: user.id,
    kind: 'chat',
    provider: body.provider,
    model,
    log: deps.log,
  });

  // The user's message is committed before any provider is called.
  let removed: MessageRow | undefined;
  if (userMessage) {
    if ((await messages.deleteAfter(userMessage)) > 0) removed = userMessage;
  } else {
    if (edited) {
      await messages.deleteFrom(edited);
      removed = edited;
    }
    userMessage = await messages.insert(conversation.id, {
      role: 'user',
      content: body.text!.trim(),
      provider: body.provider,
    });
  }
  const history = await messages.recent(conversation.id, CONTEXT_MESSAGES);
  const reply = (await messages.insert(conversation.id, {
    role: 'assistant',
    content: '',
    provider: body.provider,
    model,
    reply_to_id: userMessage!.id,
    status: 'streaming',
  }))!;
  const publish = (
    type: 'INSERT' | 'UPDATE' | 'DELETE',
    row: { id: string; conversation_id: string },
  ) => deps.realtime.publish(user.id, messageChange(type, row));

  const log = deps.log.child({
    userId: user.id,
    conversationId: conversation.id,
    provider: body.provider,
  });
  // Both messages are stored; the sidebar order and the other tabs' news need not hold up the
  // provider call, so they go out beside it (time to first token, README "Benchmarks").
  void Promise.all([
    conversations.touch(conversation.id),
    removed ? publish('DELETE', removed) : undefined,
    publish('INSERT', userMessage!),
    publish('INSERT', reply),
  ]).catch((err: unknown) => log.warn({ err }, 'announcing the new messages failed'));
  const writer = replyWriter(
    messages,
    reply.id,
    (err) => log.error({ err }, 'saving the reply failed'),
    () => publish('UPDATE', reply),
  );
  const metadata: ChatMessageMetadata = {
    user_message_id: userMessage!.id,
    assistant_message_id: reply.id,
    provider: body.provider,
    model,
  };

  const result = streamText({
    model: getLanguageModel({
      provider: body.provider,
      model,
      apiKey: key.apiKey,
      baseUrls: deps.config.providerBaseUrls,
    }),
    messages: toModelMessages(history),
    temperature: body.temperature,
    topP: body.top_p,
    maxOutputTokens: body.max_tokens,
    // A 429 or 5xx before the first token is retried with backoff, twice at most.
    maxRetries: 2,
    abortSignal: c.req.raw.signal,
    onChunk: ({ chunk }) => {
      if (chunk.type === 'text-delta') writer.append(chunk.text);
    },
    onFinish: async ({ text, sources, totalUsage }) => {
      await recordUsage('ok', totalUsage);
      const saved: Source[] = sources
        .filter((s) => s.sourceType === 'url')
        .map((s) => ({ url: s.url, ...(s.title ? { title: s.title } : {}) }));
      await writer.finish({ content: text, status: 'complete', sources: saved });
    },
    onAbort: async () => {
      await recordUsage('ok');
      await writer.finish({ status: 'interrupted' });
    },
    onError: ({ error }) => {
      failed(error);
    },
  });

  // A provider that drops the connection mid-reply fails the stream itself rather than calling
  // onError; merging into a UI message stream turns either way into an `error` part the client
  // shows, and the reply is kept with what arrived.
  function failed(error: unknown): string {
    log.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'provider call failed',
    );
    void writer.finish({ status: writer.text ? 'interrupted' : 'error' });
    void recordUsage('error');
    return describeProviderError(body.provider, error);
  }

  return createUIMessageStreamResponse({
    stream: createUIMessageStream({
      execute: ({ writer: ui }) => {
        ui.merge(
          result.toUIMessageStream({
            sendSources: true,
            messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
            onError: failed,
          }),
        );
      },
      onError: failed,
    }),
  });
});
