import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  type ModelMessage,
  type UIMessageChunk,
} from 'ai';
import type { AgentTool, StoredToolCall } from '@chorus/shared/api/agents';
import type { ChatMessageMetadata } from '@chorus/shared/api/conversations';
import { chatMessages } from '@chorus/shared/messages';
import type { ProviderId } from '@chorus/shared/providers';
import {
  agentNotFound,
  agentRunSettings,
  checkRunCapacity,
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
import { isUuid } from '../../../http/uuid.ts';
import { SAVE_WAIT_MS, settledWithin } from '../../../lifecycle/pending-writes.ts';
import { messageChange } from '../../realtime/changes.ts';
import { realtimeNotice } from '../../realtime/hub.ts';
import { replyWriter } from '../chat/reply-writer.ts';
import { approveAgentRunRoute } from './agent-runs.routes.ts';
import { agentLimits } from '@chorus/shared/api/agents';

const runNotFound = () => new ApiError(404, 'agents:run_not_found');
const notWaiting = () => new ApiError(409, 'agents:run_not_waiting');

/** Said to the model for a waiting call the user did not answer. */
const NOT_ANSWERED = 'The user did not approve this call.';

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
    await checkRunCapacity(deps, user.id);
    const provider = agent.provider as ProviderId;
    const call = await prepareModelCall(deps, {
      userId: user.id,
      source: 'agent',
      provider,
      model: agent.model,
    });

    const answers = [...waiting.entries()].map(([approvalId, waited]) => {
      const decision = decisions.find((d) => d.approval_id === approvalId);
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
    let settings: AgentRunSettings;
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
      // A tool approved "once per conversation" asks no more in this conversation, this run too.
      const once = new Set(
        (agent.tools as AgentTool[]).filter((t) => t.approval === 'once').map((t) => t.tool),
      );
      const granted = answers
        .filter((a) => a.approved)
        .map((a) => settings.toolset.keys.get(a.name))
        .filter((key): key is string => key !== undefined && once.has(key));
      await runs.grant(run.conversation_id, granted);
      for (const [name, key] of settings.toolset.keys) {
        const tool = settings.toolset.tools[name];
        if (tool && granted.includes(key)) tool.needsApproval = false;
      }
      // Only one answer to a pause goes on with it (two tabs, a double click).
      if (!(await runs.resume(run.id, deps.instance.id))) throw notWaiting();
    } catch (error) {
      await call.refund();
      throw error;
    }
    for (const answer of answers) calls.decide(answer.approvalId, answer.approved);

    const state: AgentRunState = run.state;
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
    await messages.update(
      reply.id,
      { status: 'streaming', instance_id: deps.instance.id, tool_calls: calls.list },
      realtimeNotice(user.id, [change]),
    );
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
    let reportEnd!: (saving: Promise<boolean>) => void;
    const reported = new Promise<{ saving: Promise<boolean> }>(
      (resolve) => (reportEnd = (saving) => resolve({ saving })),
    );
    const end = (patch: Parameters<typeof writer.finish>[0]) => {
      if (patch.status !== 'complete') calls.settle('The run stopped before this call ended.');
      writer.setToolCalls(calls.list);
      void settings.toolset.close();
      const saving = writer.finish(patch);
      reportEnd(saving);
      return settledWithin(saving, SAVE_WAIT_MS).then(() => undefined);
    };
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
        tools: settings.toolset.tools,
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
          return end({
            status: 'interrupted',
            ...(restarting
              ? {
                  error_code: 'chat:server_restarting',
                  error_message: chatMessages.serverRestarting,
                }
              : by === 'timeout'
                ? {
                    error_code: 'provider:timeout',
                    error_message: call.describe(new Error('timeout')),
                  }
                : {}),
          });
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
    };
    const logged = new TransformStream<UIMessageChunk, UIMessageChunk>({
      transform(part, out) {
        if (calls.apply(part)) writer.setToolCalls(calls.list);
        out.enqueue(part);
      },
      flush: () => live.done(),
    });
    c.req.raw.signal.addEventListener('abort', () => live.done(), { once: true });
    return createUIMessageStreamResponse({
      stream: createUIMessageStream({
        execute: async ({ writer: ui }) => {
          ui.merge(
            streamed.result
              .toUIMessageStream({
                // The run goes on in the stored reply: the same message, not a new one.
                generateMessageId: () => reply.id,
                messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
                onError: (error) => streamed.reportFailure(error),
              })
              .pipeThrough(logged),
          );
          const { saving } = await reported;
          const stored = (await settledWithin(saving, SAVE_WAIT_MS)) ?? true;
          if (!stored) ui.write({ type: 'error', errorText: chatMessages.replyNotSaved });
        },
        onError: (error) => streamed.reportFailure(error),
      }),
    });
  },
);
