import { keyMessages, messages } from '@chorus/shared/messages';
import { isApiError } from '@/lib/api-error';

export type ChatErrorView =
  | { kind: 'missing-key' }
  | { kind: 'not-found' }
  | { kind: 'message'; text: string }
  /** The plan refused the prompt (daily limit, provider or model): the server's own words. */
  | { kind: 'plan'; text: string };

/** What the chat says when a send fails: before the stream (JSON 4xx) or during it. */
export const describeChatError = (error: Error): ChatErrorView => {
  if (isApiError(error)) {
    if (error.code === 'keys:missing') return { kind: 'missing-key' };
    if (error.code?.startsWith('quota:')) return { kind: 'plan', text: error.message };
    if (error.status === 404) return { kind: 'not-found' };
    if (error.status === 401) return { kind: 'message', text: messages.auth.requiredSignInAgain };
    if (error.status === 429) {
      return {
        kind: 'message',
        text:
          error.retryAfterSeconds === undefined
            ? keyMessages.rateLimited
            : messages.rateLimit.operation('Chat', error.retryAfterSeconds),
      };
    }
    return { kind: 'message', text: error.message };
  }
  return {
    kind: 'message',
    text: `The reply stopped: ${error.message || 'the connection was lost'}. What arrived is saved; you can regenerate it.`,
  };
};
