/** One part of an AI SDK UI message stream, as the tests read it. */
export type StreamPart = {
  type: string;
  delta?: string;
  errorText?: string;
  messageMetadata?: Record<string, string>;
  url?: string;
};

/** Reads an AI SDK UI message stream (SSE) to its end, into its parts. */
export const readParts = async (res: Response): Promise<StreamPart[]> => partsOf(await res.text());

export const partsOf = (sse: string): StreamPart[] =>
  sse
    .split('\n')
    .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
    .map((l) => JSON.parse(l.slice(6)) as StreamPart);

export const textOf = (parts: StreamPart[]) =>
  parts
    .filter((p) => p.type === 'text-delta')
    .map((p) => p.delta)
    .join('');

/** Polls `check` until it holds; throws after `ms`. */
export const waitFor = async (check: () => Promise<boolean> | boolean, ms = 5_000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${ms} ms`);
};
