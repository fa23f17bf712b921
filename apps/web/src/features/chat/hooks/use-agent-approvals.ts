import { useQueryClient } from '@tanstack/react-query';
import type { UIMessageChunk } from 'ai';
import { useCallback, useMemo, useState } from 'react';
import type { AgentApprovalRequest } from '@chorus/shared/api/agents';
import type { AgentApprovals } from '@/components/chat/agent-approvals';
import { apiStream } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import {
  rowFromLive,
  uiMessageFromRow,
  type ChatRow,
  type ChorusUIMessage,
} from '@/lib/chat/chat-rows';
import { messagesQueryKey } from '@/lib/queries/messages';

/**
 * The chunks of a UI message stream (SSE), read by the AI SDK's own event-stream parser. The run
 * goes on in the stored reply, so the `start` chunk's new message id is dropped: it would begin
 * an empty message.
 */
const chunksOf = async (body: ReadableStream<Uint8Array>) => {
  const { jsonSchema, parseJsonEventStream } = await import('ai');
  return parseJsonEventStream({ stream: body, schema: jsonSchema<UIMessageChunk>({}) }).pipeThrough(
    new TransformStream<
      { success: true; value: UIMessageChunk } | { success: false },
      UIMessageChunk
    >({
      transform(result, out) {
        if (!result.success) return;
        const chunk = result.value;
        if (chunk.type === 'start') delete chunk.messageId;
        out.enqueue(chunk);
      },
    }),
  );
};

/**
 * The approvals of one conversation's agent runs: the answers given, and the reply of a run going
 * on, streamed into the stored reply's place until the history has it.
 */
export const useAgentApprovalsState = (conversationId: string | undefined) => {
  const queryClient = useQueryClient();
  const [decisions, setDecisions] = useState<ReadonlyMap<string, boolean>>(new Map());
  const [live, setLive] = useState<ReadonlyMap<string, ChatRow>>(new Map());
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());

  const run = useCallback(
    async (row: ChatRow, answers: ReadonlyMap<string, boolean>) => {
      const runId = row.agent?.runId;
      if (!runId) return;
      const body: AgentApprovalRequest = {
        decisions: [...answers].map(([approval_id, approved]) => ({ approval_id, approved })),
      };
      let message: ChorusUIMessage = uiMessageFromRow(row, answers);
      const show = (streaming: boolean) =>
        setLive((rows) =>
          new Map(rows).set(row.id, {
            ...rowFromLive(message, streaming),
            id: row.id,
            provider: row.provider,
            model: row.model,
            agent: row.agent && { ...row.agent, status: 'running' },
          }),
        );
      setErrors((all) => {
        const next = new Map(all);
        next.delete(row.id);
        return next;
      });
      show(true);
      try {
        const response = await apiStream(
          `/functions/v1/agent-runs/${encodeURIComponent(runId)}/approvals`,
          { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        );
        if (!response.body) throw new Error('The server sent no reply.');
        const { readUIMessageStream } = await import('ai');
        let failure: unknown;
        for await (const next of readUIMessageStream<ChorusUIMessage>({
          message,
          stream: await chunksOf(response.body),
          onError: (error) => {
            failure = error;
          },
        })) {
          message = next;
          show(true);
        }
        if (failure) throw failure;
      } catch (error) {
        setErrors((all) =>
          new Map(all).set(
            row.id,
            `${errorMessage(error, 'The answer could not be sent.')} Reload the conversation to see where the run stands.`,
          ),
        );
      } finally {
        if (conversationId) {
          await queryClient.invalidateQueries({ queryKey: messagesQueryKey(conversationId) });
        }
        setLive((rows) => {
          const next = new Map(rows);
          next.delete(row.id);
          return next;
        });
      }
    },
    [conversationId, queryClient],
  );

  const decide = useCallback(
    (row: ChatRow, approvalId: string, approved: boolean) => {
      const decided = new Map(decisions).set(approvalId, approved);
      setDecisions(decided);
      const waiting = row.toolCalls.filter((call) => call.state === 'awaiting-approval');
      const answers = new Map(
        waiting.flatMap((call) =>
          call.approvalId && decided.has(call.approvalId)
            ? [[call.approvalId, decided.get(call.approvalId)!] as const]
            : [],
        ),
      );
      // The run goes on once every call it waits on has an answer.
      if (answers.size === waiting.length) void run(row, answers);
    },
    [decisions, run],
  );

  const approvals = useMemo<AgentApprovals>(
    () => ({
      decisionOf: (approvalId) => decisions.get(approvalId),
      decide,
      sending: (rowId) => live.has(rowId),
      errorOf: (rowId) => errors.get(rowId),
    }),
    [decisions, decide, live, errors],
  );

  /** The rows with each run going on in its reply's place. */
  const overlay = useCallback(
    (rows: ChatRow[]) => (live.size === 0 ? rows : rows.map((row) => live.get(row.id) ?? row)),
    [live],
  );

  return { approvals, overlay };
};
