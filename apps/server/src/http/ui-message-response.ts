import { generateId, UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';

export type UiMessageResponseSteps = {
  /**
   * Each chunk on its way out: what to send in its place (none, one or several). It may wait
   * (the chat's first chunk waits for its turn's commit); if it throws, the stream ends with
   * `onError`'s message.
   */
  each?: (part: UIMessageChunk) => UIMessageChunk[] | Promise<UIMessageChunk[]>;
  /** What the person reads when the stream failed on its way out. */
  onError: (error: unknown) => string;
  /** Sent after the last chunk (`completed`: the parts ran out rather than failed). */
  tail?: (completed: boolean) => Promise<UIMessageChunk[]>;
  /** Once, when the last byte has been handed on or the client has gone. */
  onClose?: () => void;
};

/**
 * The AI SDK's stream headers, and chunked transfer said outright: without it @hono/node-server
 * reads the body's first chunks ahead of the head to see whether the whole body is already there
 * (and could get a content-length), waiting a timer tick when the second chunk is not, so the
 * first token left about a millisecond late (docs/BENCHMARKS.md, issue 11). A stream is never
 * whole at that point. Node writes the chunked framing itself; HTTP/1.1 only, as we serve.
 */
const STREAM_HEADERS = { ...UI_MESSAGE_STREAM_HEADERS, 'transfer-encoding': 'chunked' };

const encoder = new TextEncoder();
const sse = (part: UIMessageChunk | '[DONE]') =>
  encoder.encode(`data: ${part === '[DONE]' ? part : JSON.stringify(part)}\n\n`);

/**
 * A UI message stream as the AI SDK's `createUIMessageStreamResponse(createUIMessageStream(…))`
 * writes it (server-sent events, the same headers, a generated message id on `start` when none
 * is set, `[DONE]` at the end), in one stage: each chunk is encoded where it is read, instead of
 * passing through five web streams on its way to the socket (docs/BENCHMARKS.md, issue 13).
 *
 * The parts are read as fast as they come, whatever the client's pace, as `createUIMessageStream`
 * reads them: the provider's stream is never held up by a slow reader.
 */
export const uiMessageResponse = (
  parts: AsyncIterable<UIMessageChunk>,
  steps: UiMessageResponseSteps,
): Response => {
  const reader = parts[Symbol.asyncIterator]();
  // Stops the parts early: a stream is cancelled, a generator runs its `finally`.
  const stop = () => void reader.return?.().catch(() => undefined);
  const messageId = generateId();
  let open = true;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    steps.onClose?.();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (part: UIMessageChunk | '[DONE]') => {
        if (open) controller.enqueue(sse(part));
      };
      const sendPart = (part: UIMessageChunk) =>
        send(part.type === 'start' && part.messageId == null ? { ...part, messageId } : part);
      void (async () => {
        let completed = false;
        try {
          for (;;) {
            const { done, value } = await reader.next();
            if (done) break;
            if (steps.each) for (const out of await steps.each(value)) sendPart(out);
            else sendPart(value);
          }
          completed = true;
        } catch (error) {
          stop();
          let errorText: string;
          try {
            errorText = steps.onError(error);
          } catch {
            errorText = 'An error occurred.';
          }
          send({ type: 'error', errorText });
        }
        try {
          for (const part of (await steps.tail?.(completed)) ?? []) sendPart(part);
        } catch {
          // The tail only adds news; the stream still ends properly.
        }
        send('[DONE]');
        if (open) {
          open = false;
          controller.close();
        }
        close();
      })();
    },
    cancel() {
      open = false;
      close();
      stop();
    },
  });
  return new Response(body, { headers: STREAM_HEADERS });
};
