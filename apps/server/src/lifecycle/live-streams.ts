/** What a stream in progress offers a stopping process. */
export type LiveStream = {
  /** Ends the stream early: the server is stopping and cannot wait any longer. */
  interrupt(): void;
};

export type LiveStreams = {
  /** Registers a stream until `done` is called. */
  track(stream: LiveStream): { done(): void };
  /** Set once the process stops: streams then wait for their saves instead of ending early. */
  readonly closing: boolean;
  readonly size: number;
  /** Marks the process as stopping. */
  close(): void;
  /** Resolves once no stream is left, or after `ms`; true when none is left. */
  drain(ms: number): Promise<boolean>;
  /** Interrupts every stream still running. */
  interruptAll(): void;
};

/**
 * The chat streams this process is serving, so that a graceful stop (main.ts) can let them end
 * within its grace period, and interrupt, save and tell the ones that cannot (issue 13).
 */
export const createLiveStreams = (): LiveStreams => {
  const streams = new Set<LiveStream>();
  let closing = false;
  let changed: (() => void) | undefined;
  return {
    track(stream) {
      streams.add(stream);
      return {
        done() {
          streams.delete(stream);
          changed?.();
        },
      };
    },
    get closing() {
      return closing;
    },
    get size() {
      return streams.size;
    },
    close() {
      closing = true;
    },
    async drain(ms) {
      const deadline = Date.now() + ms;
      while (streams.size > 0 && Date.now() < deadline) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          changed = resolve;
          timer = setTimeout(resolve, deadline - Date.now());
        });
        clearTimeout(timer);
        changed = undefined;
      }
      return streams.size === 0;
    },
    interruptAll() {
      for (const stream of streams) stream.interrupt();
    },
  };
};
