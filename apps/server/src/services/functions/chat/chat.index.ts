import { randomUUID } from 'node:crypto';
import type { ModelMessage, UIMessageChunk } from 'ai';
import type {
  ChatMessageMetadata,
  ChatRequest,
  MessageAttachment,
} from '@chorus/shared/api/conversations';
import { citationsPartType } from '@chorus/shared/api/knowledge';
import { chatMessages } from '@chorus/shared/messages';
import type { ProviderId } from '@chorus/shared/providers';
import { prepareModelCall, type ModelCall } from '../../../ai/model-call.ts';
import { MessagesRepository, type MessageRow } from '../../../db/repositories/messages.ts';
import { PromptsRepository } from '../../../db/repositories/prompts.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { uiMessageResponse } from '../../../http/ui-message-response.ts';
import { messageChange } from '../../realtime/changes.ts';
import { realtimeNotice } from '../../realtime/hub.ts';
import { conversationNotFound } from '../../rest/conversations/conversation-not-found.ts';
import { chatRoute } from './chat.routes.ts';
import { knowledgeForTurn } from '../../../knowledge/chat-context.ts';
import { CustomAisRepository } from '../../../db/repositories/custom-ais.ts';
import { customAiNotFound } from '../../rest/custom-ais/custom-ais.index.ts';
import { checkImagesAccepted, claimAttachments, withAttachments } from './attachments.ts';
import { replyEnd, replyWriter, stopReason } from './reply-writer.ts';
import { agentLimits } from '@chorus/shared/api/agents';
import {
  agentRunSettings,
  takeRunCapacity,
  endRunTools,
  resolveAgent,
  runPatchAfterFinish,
  type AgentRunSettings,
} from '../../../agents/agent-turn.ts';
import { ToolCallLog } from '../../../agents/tool-calls.ts';
import { AgentRunsRepository } from '../../../db/repositories/agent-runs.ts';

/** How many earlier messages go to the model with each turn. */
const CONTEXT_MESSAGES = 100;

const toModelMessages = (rows: Pick<MessageRow, 'role' | 'content'>[]): ModelMessage[] =>
  rows
    .filter((m) => m.content.trim() !== '')
    .map((m) =>
      m.role === 'assistant'
        ? { role: 'assistant', content: m.content }
        : m.role === 'system'
          ? { role: 'system', content: m.content }
          : { role: 'user', content: m.content },
    );

type ContextMessage = Pick<MessageRow, 'role' | 'content'> & { attachments?: unknown[] };

/** What a request asks the model, and what it changes in the conversation. */
type Turn = {
  context: ContextMessage[];
  /** The conversation's own instructions; empty for none. */
  systemPrompt: string;
  /** The conversation's knowledge bases (issue 17); empty for none. */
  knowledgeBaseIds: string[];
  /**
   * The anchor of a regenerate (the answers after it become earlier versions) or an edit (it and
   * everything after it go).
   */
  replaced?: MessageRow | undefined;
  mode: 'supersede' | 'delete';
  /** The user message the reply answers: stored already (regenerate) or new. */
  userMessageId: string;
  newUserText?: string | undefined;
};

/** Reads what the turn refers to, checking it belongs to the user; throws a typed 4xx if not. */
const loadTurn = async (messages: MessagesRepository, body: ChatRequest): Promise<Turn> => {
  const loaded = await messages.recentOfOwn(body.conversation_id, CONTEXT_MESSAGES);
  if (!loaded) throw conversationNotFound();
  const { messages: recent, systemPrompt, knowledgeBaseIds } = loaded;
  // A send retried after its answer was lost: the first try is stored already (its id was made
  // by the client), so it is not stored twice; the client shows the stored one instead.
  if (body.message_id && recent.some((m) => m.id === body.message_id)) {
    throw new ApiError(
      409,
      'chat:already_sent',
      'This message was sent already; it is in the conversation. Reload it to see its reply.',
    );
  }
  if (body.regenerate) {
    const at = recent.findLastIndex((m) => m.role === 'user');
    const userMessage = recent[at];
    if (!userMessage) {
      throw new ApiError(
        400,
        'chat:nothing_to_regenerate',
        'There is no message to answer again yet.',
      );
    }
    const later = at < recent.length - 1;
    return {
      context: recent.slice(0, at + 1),
      systemPrompt,
      knowledgeBaseIds,
      replaced: later ? userMessage : undefined,
      mode: 'supersede',
      userMessageId: userMessage.id,
    };
  }
  const text = body.text!.trim();
  const asked: ContextMessage = { role: 'user' as const, content: text };
  if (body.edit_of) {
    const edited = recent.find((m) => m.id === body.edit_of) ?? (await messages.get(body.edit_of));
    if (!edited || edited.conversation_id !== body.conversation_id || edited.role !== 'user') {
      throw new ApiError(
        404,
        'chat:message_not_found',
        'The message to edit does not exist in this conversation.',
      );
    }
    return {
      context: [...recent.filter((m) => m.seq < edited.seq), asked],
      systemPrompt,
      knowledgeBaseIds,
      replaced: edited,
      mode: 'delete',
      userMessageId: body.message_id ?? randomUUID(),
      newUserText: text,
    };
  }
  return {
    context: [...recent, asked],
    systemPrompt,
    knowledgeBaseIds,
    mode: 'supersede',
    userMessageId: body.message_id ?? randomUUID(),
    newUserText: text,
  };
};

/**
 * The call's admission (key, rate limit, plan and quota in one round trip) and the turn's reads
 * run at once. A request that cannot run is refused with the turn's reason first, as before,
 * and any prompt it was charged is given back.
 */
const prepare = async (
  call: Promise<ModelCall>,
  turn: Promise<Turn>,
): Promise<[ModelCall, Turn]> => {
  const [called, loaded] = await Promise.allSettled([call, turn]);
  if (called.status === 'fulfilled' && loaded.status === 'fulfilled') {
    return [called.value, loaded.value];
  }
  if (called.status === 'fulfilled') await called.value.refund();
  throw loaded.status === 'rejected' ? loaded.reason : (called as PromiseRejectedResult).reason;
};

export const chatRouter = createRouter<AuthedEnv>().openapi(chatRoute, async (c) => {
  const { deps, user } = c.var;
  const body = c.req.valid('json');
  const messages = new MessagesRepository(deps.database.db, user.id);
  // A custom AI (issue 18) answers with its own provider, model, instructions and settings, on
  // the caller's keys and quota; only a chat that names one reads it.
  const persona = body.custom_ai_id
    ? await new CustomAisRepository(deps.database.db, user.id).getUsable(body.custom_ai_id)
    : null;
  if (body.custom_ai_id && !persona) throw customAiNotFound();
  // An agent (issue 18) takes the turn when named by id or by `@handle`: its model, instructions
  // and tools, on the caller's keys and quota, under its step, time and token limits.
  const agent = persona ? null : await resolveAgent(deps, user.id, body);
  // The run's place among those the user may have going at once, taken before the call; given
  // back when the reply's stream closes, or here when the turn never starts.
  const place = agent ? await takeRunCapacity(deps, user.id) : null;
  const provider =
    (agent?.provider as ProviderId | undefined) ??
    (persona?.provider as ProviderId | undefined) ??
    body.provider;
  const [call, turn] = await prepare(
    prepareModelCall(deps, {
      userId: user.id,
      source: agent ? 'agent' : 'chat',
      provider,
      model: agent ? agent.model : persona ? persona.model : body.model,
    }),
    loadTurn(messages, body),
  ).catch(async (error: unknown) => {
    await place?.release();
    throw error;
  });

  const conversationId = body.conversation_id;
  // Attachments and knowledge (issue 17): only a turn that has them does this work.
  let attachments: MessageAttachment[] = [];
  let knowledge: Awaited<ReturnType<typeof knowledgeForTurn>> = null;
  let modelMessages: ModelMessage[];
  let run: AgentRunSettings | null = null;
  try {
    if (body.attachment_ids?.length && turn.newUserText) {
      attachments = await claimAttachments(deps, user.id, conversationId, body.attachment_ids);
      checkImagesAccepted(provider, attachments);
      turn.context[turn.context.length - 1]!.attachments = attachments;
    }
    modelMessages = turn.context.some((m) => (m.attachments?.length ?? 0) > 0)
      ? await withAttachments(deps, user.id, provider, turn.context)
      : toModelMessages(turn.context);
    const baseIds = [
      ...new Set([
        ...turn.knowledgeBaseIds,
        ...(persona?.knowledge_base_ids ?? []),
        ...(agent?.knowledge_base_ids ?? []),
      ]),
    ];
    if (baseIds.length > 0) {
      knowledge = await knowledgeForTurn(deps, {
        userId: user.id,
        baseIds,
        context: turn.context,
        signal: c.req.raw.signal,
      });
    }
    if (agent) {
      run = await agentRunSettings(deps, {
        userId: user.id,
        agent,
        conversationId: body.conversation_id,
        provider,
        model: call.model,
        signal: c.req.raw.signal,
      });
    }
  } catch (error) {
    await Promise.all([call.refund(), place?.release()]);
    throw error;
  }
  const knowledgeSources = knowledge?.sources ?? [];
  const system =
    [
      run?.system ?? '',
      persona?.system_prompt.trim() ?? '',
      turn.systemPrompt.trim(),
      knowledge?.instructions ?? '',
    ]
      .filter(Boolean)
      .join('\n\n') || undefined;
  const replyId = randomUUID();
  const runId = agent ? randomUUID() : undefined;
  const toolCalls = agent ? new ToolCallLog() : null;
  if (toolCalls && run) toolCalls.describeApprovals(run.toolset.scopes);
  const log = deps.log.child({ userId: user.id, conversationId, provider });
  const change = (type: 'INSERT' | 'UPDATE' | 'DELETE', id: string) =>
    messageChange(type, { id, conversation_id: conversationId });

  // The turn is stored beside the provider call; the writer starts after it, and no token is
  // forwarded before it has committed (ARCHITECTURE §11).
  let savedTurn!: (outcome: Promise<void>) => void;
  const saved = new Promise<void>((resolve) => (savedTurn = (o) => resolve(o)));
  const writer = replyWriter({
    repo: messages,
    id: replyId,
    after: saved,
    saves: deps.saves,
    onError: (err) => log.warn({ err }, 'saving the partial reply failed'),
    finalNotice: realtimeNotice(user.id, [change('UPDATE', replyId)]),
  });
  // How the reply's last save goes, once its end is known (finish, stop or failure).
  const ending = replyEnd(writer, (patch) => {
    if (toolCalls) endRunTools(toolCalls, run?.toolset, writer, patch.status);
    // A reply cut short keeps the passages it was given, too.
    return knowledgeSources.length > 0 ? { sources: knowledgeSources, ...patch } : patch;
  });
  const end = ending.end;
  const stop = new AbortController();
  let restarting = false;
  const live = deps.streams.track({
    interrupt() {
      restarting = true;
      stop.abort();
    },
  });
  const metadata: ChatMessageMetadata = {
    user_message_id: turn.userMessageId,
    assistant_message_id: replyId,
    provider,
    model: call.model,
    ...(agent && runId && { agent_run_id: runId, agent_name: agent.name }),
    ...(run?.toolset.scopes.size && { approval_scopes: Object.fromEntries(run.toolset.scopes) }),
  };
  const streamed = call.streamUi(
    {
      messages: modelMessages,
      system,
      temperature: agent?.temperature ?? persona?.temperature ?? body.temperature,
      topP: persona?.top_p ?? body.top_p,
      maxOutputTokens: persona?.max_tokens ?? body.max_tokens,
      signal: AbortSignal.any([c.req.raw.signal, stop.signal]),
      ...(run && {
        tools: run.toolset.tools,
        stopWhen: run.stopWhen,
        timeoutMs: agentLimits.runTimeoutMs,
      }),
    },
    {
      onTextDelta: (delta) => writer.append(delta),
      onFinish: ({ text, sources, usage, responseMessages, steps }) => {
        if (toolCalls) {
          toolCalls.reconcile(responseMessages);
          recordRun(
            runPatchAfterFinish({
              waiting: toolCalls.waiting.length > 0,
              system,
              provider,
              context: modelMessages,
              responseMessages,
              steps,
              usage,
              prior: { steps: 0, input: 0, output: 0, elapsedMs: 0 },
            }),
          );
        }
        return end({
          // Every step's text: an agent's reply is written around its tool calls.
          content: toolCalls ? writer.text : text,
          status: 'complete',
          sources: [...knowledgeSources, ...sources],
        });
      },
      onAbort: ({ by }) => {
        recordRun({ status: 'stopped' });
        return end({ status: 'interrupted', ...stopReason(by, restarting, call) });
      },
      onError: ({ code, message }) => {
        recordRun({ status: 'failed', error_code: code, error_message: message });
        return end({
          status: writer.text ? 'interrupted' : 'error',
          error_code: code,
          error_message: message,
        });
      },
    },
    { metadata, sendSources: true },
  );
  // On PostgreSQL the write goes out at once, beside the provider call. On the embedded
  // database a query holds the event loop, so it waits until the provider request has left.
  const beside =
    deps.database.driver === 'pglite'
      ? streamed.sent.then(() => new Promise((resolve) => setImmediate(resolve)))
      : Promise.resolve();
  const written = beside
    .then(() =>
      messages.writeTurn({
        conversationId,
        replace: turn.replaced && { seq: turn.replaced.seq, mode: turn.mode },
        userMessage: turn.newUserText
          ? {
              id: turn.userMessageId,
              content: turn.newUserText,
              provider,
              attachments,
            }
          : undefined,
        reply: {
          id: replyId,
          provider,
          model: call.model,
          reply_to_id: turn.userMessageId,
          agent_run_id: runId,
        },
        instanceId: deps.instance.id,
        // The other tabs hear of the turn from the statement that stores it.
        notice: realtimeNotice(user.id, [
          ...(turn.replaced
            ? [change(turn.mode === 'delete' ? 'DELETE' : 'UPDATE', turn.replaced.id)]
            : []),
          ...(turn.newUserText ? [change('INSERT', turn.userMessageId)] : []),
          change('INSERT', replyId),
        ]),
      }),
    )
    .then((stored) => {
      if (!stored) throw conversationNotFound();
    });
  savedTurn(written);
  // The run's row follows its reply's; what the run reports waits for it.
  const runs = new AgentRunsRepository(deps.database.db, user.id);
  const runStored =
    agent && runId
      ? written.then(() =>
          runs.create({
            id: runId,
            agent_id: agent.id,
            agent_name: agent.name,
            agent_version: agent.version,
            conversation_id: conversationId,
            message_id: replyId,
            instance_id: deps.instance.id,
          }),
        )
      : Promise.resolve();
  function recordRun(patch: Parameters<AgentRunsRepository['update']>[1]) {
    if (!runId) return;
    void runStored
      .then(() => deps.saves.run('agent-run', () => runs.update(runId, patch)))
      .catch((err: unknown) => log.warn({ err, runId }, 'recording the agent run failed'));
  }
  // A message made from a saved prompt counts as a use of it once the turn is stored; nothing
  // waits for the count, and it never fails the chat. A prompt not the user's counts nothing.
  const promptId = body.prompt_id;
  if (promptId) {
    void written.then(
      () =>
        new PromptsRepository(deps.database.db, user.id)
          .countUse(promptId)
          .catch((err: unknown) => log.warn({ err, promptId }, 'counting the prompt use failed')),
      () => undefined,
    );
  }

  let turnFailed = false;
  // The reply is read from the provider at once; only its first part waits for the turn's commit.
  let committed = false;
  const each = async (part: UIMessageChunk): Promise<UIMessageChunk[]> => {
    if (!committed) {
      try {
        await written;
      } catch (error) {
        turnFailed = true;
        stop.abort();
        await call.refund();
        throw error;
      }
      committed = true;
    }
    // A stop the server made is no stop of the user's: the UI shows why, and what to do.
    if (part.type === 'abort' && restarting) {
      return [{ type: 'error', errorText: chatMessages.serverRestarting }];
    }
    if (toolCalls?.apply(part)) writer.setToolCalls(toolCalls.list);
    // The reply's knowledge citations, as soon as it starts.
    return part.type === 'start' && knowledgeSources.length > 0
      ? [part, { type: citationsPartType, data: knowledgeSources }]
      : [part];
  };
  // The stream counts as live until its last byte has left (or its client has gone).
  c.req.raw.signal.addEventListener('abort', () => live.done(), { once: true });
  return uiMessageResponse(streamed.parts, {
    each,
    onError: (error) => {
      if (!turnFailed) return streamed.reportFailure(error);
      log.error({ err: error }, 'storing the turn failed');
      return error instanceof ApiError
        ? error.message
        : 'Your message could not be saved. Nothing was sent; try again.';
    },
    tail: async (completed) => {
      try {
        // Every way a call ends reports it before the stream closes; this only guards the end.
        if (completed) setImmediate(() => void end({ status: 'interrupted' }));
        const stored = await ending.stored(() => deps.streams.closing);
        return stored ? [] : [{ type: 'error', errorText: chatMessages.replyNotSaved }];
      } catch (error) {
        log.warn({ err: error }, 'ending the reply failed');
        return [];
      }
    },
    onClose: () => {
      live.done();
      void place?.release();
    },
  });
});
