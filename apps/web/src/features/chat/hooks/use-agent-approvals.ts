import { useQueryClient } from '@tanstack/react-query';
import type { UIMessageChunk } from 'ai';
import { useCallback, useMemo, useRef, useState } from 'react';
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

/** The JSON events of a UI message stream (SSE), as chunks. */
const chunksOf = (body: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk> => {
  let buffer = '';
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  return body.pipeThrough(decoder).pipeThrough(
    new TransformStream<string, UIMessageChunk>({
      transform(text, out) {
        buffer += text;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
          try {
            const chunk = JSON.parse(line.slice(6)) as UIMessageChunk;
            // The run goes on in the stored reply: a new message id would start an empty one.
            if (chunk.type === 'start') delete chunk.messageId;
            out.enqueue(chunk);
          } catch {
            // A line that is not JSON is no part of the reply.
          }
        }
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
  const decided = useRef(new Map<string, boolean>());

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
          stream: chunksOf(response.body),
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
      decided.current.set(approvalId, approved);
      setDecisions(new Map(decided.current));
      const waiting = row.toolCalls.filter((call) => call.state === 'awaiting-approval');
      const answers = new Map(
        waiting.flatMap((call) =>
          call.approvalId && decided.current.has(call.approvalId)
            ? [[call.approvalId, decided.current.get(call.approvalId)!] as const]
            : [],
        ),
      );
      // The run goes on once every call it waits on has an answer.
      if (answers.size === waiting.length) void run(row, answers);
    },
    [run],
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
