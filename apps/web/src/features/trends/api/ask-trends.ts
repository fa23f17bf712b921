import { useCallback, useEffect, useRef, useState } from 'react';
import type { TrendsAsk } from '@chorus/shared/api/trends';
import { apiStream } from '@/lib/api-client';
import { readTextStream } from '../utils/read-text-stream';

/**
 * Asks a model about the trends and hands over the answer's text as it streams. Throws an
 * ApiError when the server refuses before answering (a missing key, the quota, a bad question),
 * and the AbortError of `signal` when stopped.
 */
export const askTrends = async (
  request: TrendsAsk,
  { signal, onText }: { signal: AbortSignal; onText: (text: string) => void },
): Promise<void> => {
  const response = await apiStream('/functions/v1/trends-ask', {
    headers: { 'Content-Type': 'application/json', Accept: 'text/plain' },
    body: JSON.stringify(request),
    signal,
  });
  if (!response.body) throw new Error('The server answered without any text.');
  for await (const text of readTextStream(response.body)) onText(text);
};

export type AnswerStatus = 'idle' | 'streaming' | 'done' | 'stopped' | 'failed';

export type AnswerState = {
  status: AnswerStatus;
  /** What was asked last: Retry asks it again. */
  request: TrendsAsk | null;
  /** The answer so far; kept when stopped or cut off. */
  text: string;
  error: unknown;
};

const idle: AnswerState = { status: 'idle', request: null, text: '', error: null };

/** One question at a time, streamed in, with Stop and Retry. Leaving the page stops it. */
export const useTrendsAnswer = () => {
  const [state, setState] = useState<AnswerState>(idle);
  const current = useRef<AbortController | null>(null);

  useEffect(() => () => current.current?.abort(), []);

  const ask = useCallback(async (request: TrendsAsk) => {
    current.current?.abort();
    const own = new AbortController();
    current.current = own;
    setState({ status: 'streaming', request, text: '', error: null });
    const mine = () => current.current === own;
    try {
      await askTrends(request, {
        signal: own.signal,
        onText: (text) => {
          if (mine()) setState((before) => ({ ...before, text: before.text + text }));
        },
      });
      if (mine()) setState((before) => ({ ...before, status: 'done' }));
    } catch (error) {
      // Stopped, or a newer question took over: that one says what happened.
      if (own.signal.aborted || !mine()) return;
      setState((before) => ({ ...before, status: 'failed', error }));
    } finally {
      if (mine()) current.current = null;
    }
  }, []);

  const stop = useCallback(() => {
    if (!current.current) return;
    current.current.abort();
    current.current = null;
    setState((before) =>
      before.status === 'streaming' ? { ...before, status: 'stopped' } : before,
    );
  }, []);

  const retry = () => {
    if (state.request) void ask(state.request);
  };

  return { state, ask, stop, retry };
};
