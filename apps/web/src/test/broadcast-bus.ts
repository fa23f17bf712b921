/**
 * A same-process stand-in for BroadcastChannel: each call opens one end, and a message posted
 * on an end reaches every other open end (asynchronously, as in a browser).
 */
export const createBroadcastBus = () => {
  type End = {
    onmessage: ((event: MessageEvent) => void) | null;
    postMessage: (data: unknown) => void;
    close: () => void;
  };
  const ends = new Set<End>();
  return (): End => {
    const end: End = {
      onmessage: null,
      postMessage(data: unknown) {
        for (const other of ends) {
          if (other !== end) queueMicrotask(() => other.onmessage?.({ data } as MessageEvent));
        }
      },
      close() {
        ends.delete(end);
      },
    };
    ends.add(end);
    return end;
  };
};
