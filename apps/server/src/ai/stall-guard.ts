/** A provider sent nothing for the idle limit: before its response, or between two pieces of it. */
export class ProviderStalledError extends Error {
  override name = 'ProviderStalledError';
  constructor(readonly idleMs: number) {
    super(`The provider sent nothing for ${idleMs} ms.`);
  }
}

/**
 * A fetch for streamed model calls that fails with ProviderStalledError when the provider stays
 * silent for `idleMs`: waiting for its response headers, or for the next bytes of its body (only
 * while someone is reading it, so a slow reader is not taken for a silent provider). The request
 * is aborted too, so the connection is let go.
 *
 * Failing the body, rather than aborting the call, lets the stall reach the caller as an error
 * with its own message ("stopped responding") instead of as a stop the user asked for. The AI
 * SDK's own chunk timeouts abort, and they start only at the first token.
 */
export const stallGuardedFetch =
  (idleMs: number, inner: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch =>
  async (input, init) => {
    const cut = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal;
    const stall = () => {
      const error = new ProviderStalledError(idleMs);
      cut.abort(error);
      return error;
    };
    let timer: NodeJS.Timeout | undefined;
    const response = await new Promise<Response>((resolve, reject) => {
      timer = setTimeout(() => reject(stall()), idleMs);
      inner(input, { ...init, signal }).then(resolve, reject);
    }).finally(() => clearTimeout(timer));
    if (!response.body) return response;

    const reader = response.body.getReader();
    let failed = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        timer = setTimeout(() => {
          failed = true;
          controller.error(stall());
          void reader.cancel().catch(() => undefined);
        }, idleMs);
        try {
          const { done, value } = await reader.read();
          if (failed) return;
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          if (!failed) controller.error(error);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
