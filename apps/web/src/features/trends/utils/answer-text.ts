import { isApiError } from '@/lib/api-error';
import { helpPathFor } from '@/lib/help-links';
import type { AnswerState } from '../api/ask-trends';

type Link = { to: string; label: string };

export type Failure = {
  message: string;
  /** Where to fix it (the keys page, the plan). */
  action: Link | null;
  /** The help article that explains it. */
  help: string | null;
};

/** What went wrong, in words a person can act on, and where to go to fix it. */
export const describeFailure = (error: unknown, partial: boolean): Failure => {
  if (!isApiError(error)) {
    return {
      message: partial
        ? 'The answer stopped partway: the connection to the server was lost. Retry to ask again.'
        : 'The question could not be sent. Check your connection and retry.',
      action: null,
      help: null,
    };
  }
  const help = helpPathFor(error.code);
  if (error.code === 'keys:missing' || error.code === 'provider:auth') {
    return {
      message: error.message,
      action: { to: '/copy-api-keys', label: 'Open API keys' },
      help,
    };
  }
  if (error.code?.startsWith('quota:')) {
    return { message: error.message, action: { to: '/profile', label: 'See your plan' }, help };
  }
  if (error.status === 429 && error.retryAfterSeconds) {
    return {
      message: `${error.message} Try again in ${Math.ceil(error.retryAfterSeconds)} s.`,
      action: null,
      help,
    };
  }
  return { message: error.message, action: null, help };
};

/** The line under the question: where the answer stands. */
export const answerStatusText = (state: Pick<AnswerState, 'status' | 'text'>): string => {
  switch (state.status) {
    case 'streaming':
      return state.text ? 'Answering…' : 'Waiting for the model…';
    case 'done':
      return state.text
        ? 'Done.'
        : 'Done, but the model answered with nothing. Retry or ask another way.';
    case 'stopped':
      return state.text ? 'Stopped. The answer so far is kept.' : 'Stopped before any answer came.';
    case 'failed':
      return 'The answer failed.';
    default:
      return '';
  }
};
