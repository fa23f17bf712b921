import type { ModelMessage } from 'ai';
import type { AgentTool, StoredToolCall } from '@chorus/shared/api/agents';
import type { ChatMessageMetadata } from '@chorus/shared/api/conversations';
import { chatMessages } from '@chorus/shared/messages';
import type { ProviderId } from '@chorus/shared/providers';
import {
  agentNotFound,
  agentRunSettings,
  takeRunCapacity,
  endRunTools,
  runPatchAfterFinish,
  type AgentRunSettings,
} from '../../../agents/agent-turn.ts';
import { ToolCallLog } from '../../../agents/tool-calls.ts';
import { prepareModelCall } from '../../../ai/model-call.ts';
import { AgentRunsRepository } from '../../../db/repositories/agent-runs.ts';
import { AgentsRepository } from '../../../db/repositories/agents.ts';
import type { AgentRunState } from '../../../db/schema/agents.ts';
import { MessagesRepository } from '../../../db/repositories/messages.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { uiMessageResponse } from '../../../http/ui-message-response.ts';
import { isUuid } from '../../../http/uuid.ts';
import { messageChange } from '../../realtime/changes.ts';
import { realtimeNotice } from '../../realtime/hub.ts';
import { replyEnd, replyWriter, stopReason } from '../chat/reply-writer.ts';
import { approveAgentRunRoute } from './agent-runs.routes.ts';
import { agentLimits } from '@chorus/shared/api/agents';

const runNotFound = () => new ApiError(404, 'agents:run_not_found');
const notWaiting = () => new ApiError(409, 'agents:run_not_waiting');

/** Said to the model for a waiting call the user did not answer. */
const NOT_ANSWERED = 'The user did not approve this call.';
/** Said to the model for an approved call whose tool the agent no longer has. */
const TOOL_GONE = 'This tool is no longer one of your tools, so the call was not made.';

/** The agent was moved to another provider while its run waited: the run cannot go on there. */
const providerChanged = () =>
  new ApiError(
    409,
    'agents:run_not_waiting',
    'The agent now answers with another provider, so this run cannot go on. Ask the agent again.',
  );

/**
 * The other half of a paused agent run (issue 18): the user's answers go to the model-call seam
 * as tool-approval responses, and the run streams on from its stored state into the same reply.
 */
export const agentRunsRouter = createRouter<AuthedEnv>().openapi(
  approveAgentRunRoute,
  async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw runNotFound();
    const { decisions } = c.req.valid('json');
    const runs = new AgentRunsRepository(deps.database.db, user.id);
    const messages = new MessagesRepository(deps.database.db, user.id);
    const run = await runs.get(id);
    if (!run) throw runNotFound();
    if (run.status !== 'awaiting_approval') throw notWaiting();
    const reply = await messages.get(run.message_id);
    if (!reply) throw runNotFound();
    const calls = new ToolCallLog(reply.tool_calls as StoredToolCall[]);
    const waiting = new Map(calls.waiting.map((call) => [call.approval_id!, call]));
    if (decisions.some((d) => !waiting.has(d.approval_id))) throw notWaiting();
    const agent = run.agent_id
      ? await new AgentsRepository(deps.database.db, user.id).get(run.agent_id)
      : null;
    if (!agent) throw agentNotFound();
    const state: AgentRunState = run.state;
    // The messages so far carry the first provider's tool call ids and metadata.
    if (state.provider && state.provider !== agent.provider) throw providerChanged();
    // Given back when the stream closes, or below when the run does not go on after all.
    const place = await takeRunCapacity(deps, user.id);
    const provider = agent.provider as ProviderId;
    const call = await prepareModelCall(deps, {
      userId: user.id,
      source: 'agent',
      provider,
      model: agent.model,
    }).catch(async (error: unknown) => {
      await place.release();
      throw error;
    });

    let settings: AgentRunSettings | undefined;
    let answers: { approvalId: string; name: string; approved: boolean; reason?: string }[];
    try {
      settings = await agentRunSettings(deps, {
        userId: user.id,
        agent: { ...agent, tools: agent.tools as AgentTool[] },
        conversationId: run.conversation_id,
        provider,
        model: call.model,
        signal: c.req.raw.signal,
        spent: { steps: run.steps, tokens: run.input_tokens + run.output_tokens },
      });
      const opened = settings.toolset;
      answers = [...waiting.entries()].map(([approvalId, waited]) => {
        const decision = decisions.find((d) => d.approval_id === approvalId);
        // A tool taken from the agent (or deleted) since the pause is not called, even approved.
        if (decision?.approved && !Object.hasOwn(opened.tools, waited.name)) {
          return { approvalId, name: waited.name, approved: false, reason: TOOL_GONE };
        }
        return {
          approvalId,
          name: waited.name,
          approved: decision?.approved ?? false,
          reason: decision
            ? decision.approved
              ? undefined
              : decision.reason || 'The user refused this call.'
            : NOT_ANSWERED,
        };
      });
      // A call approved "once per conversation" covers later calls of its shape (the same site,
      // URL or arguments: agents/approval-scope.ts) in this conversation, this run too.
      const granted = answers
        .filter((a) => a.approved)
        .map((a) => opened.grant(a.name, waiting.get(a.approvalId)?.input))
        .filter((g): g is { tool: string; shape: string } => g !== null);
      await runs.grant(run.conversation_id, granted);
      // Only one answer to a pause goes on with it (two tabs, a double click).
      if (!(await runs.resume(run.id, deps.instance.id))) throw notWaiting();
    } catch (error) {
      // A refused answer (another tab went on with the run) leaves no MCP session open.
      await settings?.toolset.close();
      await Promise.all([call.refund(), place.release()]);
      throw error;
    }
    const toolset = settings.toolset;
    for (const answer of answers) calls.decide(answer.approvalId, answer.approved);
    calls.describeApprovals(toolset.scopes);

    const modelMessages: ModelMessage[] = [
      ...((state.messages ?? []) as ModelMessage[]),
      {
        role: 'tool',
        content: answers.map((a) => ({
          type: 'tool-approval-response' as const,
          approvalId: a.approvalId,
          approved: a.approved,
          ...(a.reason && { reason: a.reason }),
        })),
      },
    ];
    const log = deps.log.child({ userId: user.id, runId: run.id, provider });
    const change = messageChange('UPDATE', { id: reply.id, conversation_id: run.conversation_id });
    await messages
      .update(
        reply.id,
        { status: 'streaming', instance_id: deps.instance.id, tool_calls: calls.list },
        realtimeNotice(user.id, [change]),
      )
      .catch(async (error: unknown) => {
        await place.release();
        throw error;
      });
    const writer = replyWriter({
      repo: messages,
      id: reply.id,
      after: Promise.resolve(),
      saves: deps.saves,
      onError: (err) => log.warn({ err }, 'saving the partial reply failed'),
      finalNotice: realtimeNotice(user.id, [change]),
      initialText: reply.content,
    });
    writer.setToolCalls(calls.list);
    const record = (patch: Parameters<AgentRunsRepository['update']>[1]) =>
      deps.saves
        .run('agent-run', () => runs.update(run.id, patch))
        .catch((err: unknown) => log.warn({ err }, 'recording the agent run failed'));
    const ending = replyEnd(writer, (patch) => {
      endRunTools(calls, toolset, writer, patch.status);
      return patch;
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
    const streamed = call.stream(
      {
        messages: modelMessages,
        system: state.system,
        temperature: agent.temperature ?? undefined,
        signal: AbortSignal.any([c.req.raw.signal, stop.signal]),
        tools: toolset.tools,
        stopWhen: settings.stopWhen,
        timeoutMs: Math.max(1_000, agentLimits.runTimeoutMs - run.elapsed_ms),
      },
      {
        onTextDelta: (delta) => writer.append(delta),
        onFinish: async ({ usage, responseMessages, steps }) => {
          calls.reconcile(responseMessages);
          await record(
            runPatchAfterFinish({
              waiting: calls.waiting.length > 0,
              system: state.system,
              provider,
              context: modelMessages,
              responseMessages,
              steps,
              usage,
              prior: {
                steps: run.steps,
                input: run.input_tokens,
                output: run.output_tokens,
                elapsedMs: run.elapsed_ms,
              },
            }),
          );
          return end({ status: 'complete' });
        },
        onAbort: async ({ by }) => {
          await record({ status: 'stopped' });
          return end({ status: 'interrupted', ...stopReason(by, restarting, call) });
        },
        onError: async ({ code, message }) => {
          await record({ status: 'failed', error_code: code, error_message: message });
          return end({ status: 'interrupted', error_code: code, error_message: message });
        },
      },
    );
    const metadata: ChatMessageMetadata = {
      assistant_message_id: reply.id,
      provider,
      model: call.model,
      agent_run_id: run.id,
      agent_name: agent.name,
      ...(toolset.scopes.size > 0 && { approval_scopes: Object.fromEntries(toolset.scopes) }),
    };
    c.req.raw.signal.addEventListener('abort', () => live.done(), { once: true });
    return uiMessageResponse(
      streamed.result.toUIMessageStream({
        // The run goes on in the stored reply: the same message, not a new one.
        generateMessageId: () => reply.id,
        messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
        onError: (error) => streamed.reportFailure(error),
      }),
      {
        each: (part) => {
          // A stop the server made is no stop of the user's: the UI shows why, and what to do.
          if (part.type === 'abort' && restarting) {
            return [{ type: 'error', errorText: chatMessages.serverRestarting }];
          }
          if (calls.apply(part)) writer.setToolCalls(calls.list);
          return [part];
        },
        onError: (error) => streamed.reportFailure(error),
        tail: async (completed) => {
          // Every way a call ends reports it before the stream closes; this only guards the end.
          if (completed) setImmediate(() => void end({ status: 'interrupted' }));
          const stored = await ending.stored(() => deps.streams.closing);
          return stored ? [] : [{ type: 'error', errorText: chatMessages.replyNotSaved }];
        },
        onClose: () => {
          live.done();
          void place.release();
        },
      },
    );
  },
);
