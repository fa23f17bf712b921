import { keyMessages, messages } from '@chorus/shared/messages';
import { joinSentences } from '@chorus/shared/sentences';
import { isApiError } from '@/lib/api-error';
import type { RowFailure } from './chat-rows';

/** The chat's own words for what goes wrong in the browser, before the server answers. */
export const chatFailureText = {
  offline: 'You are offline, so this message was not sent. Retry when you are back online.',
  network:
    'The connection failed before the message reached the server. Check your network, then retry.',
  stopped: 'Stopped before the server confirmed this message. Retry to send it.',
  serverFailed: 'The server could not take this message. Retry in a moment.',
  notFound: 'This conversation no longer exists. Copy the text and start a new chat.',
  alreadySent: 'This message reached the server already.',
  replyFailed: 'The reply failed.',
  replyInterrupted: 'The reply stopped before it ended.',
  arrivedIsSaved: 'What arrived is saved; you can regenerate it.',
} as const;

/** A failed fetch (no answer at all) rather than an answer that said no. */
const isNetworkFailure = (error: unknown) =>
  error instanceof TypeError ||
  (error instanceof Error && /failed to fetch|network|load failed/i.test(error.message));

/**
 * Why a send failed before the server had the message: the words on its "Not sent" bubble and
 * the code that picks the actions beside them (open API keys, see the plan).
 */
export const describeSendFailure = (error: unknown, online: boolean): RowFailure => {
  if (!online) return { reason: chatFailureText.offline };
  if (isApiError(error)) {
    const code = error.code;
    // Status 0: no answer at all (the API client's word for a failed fetch).
    if (error.status === 0) return { reason: chatFailureText.network };
    if (error.status === 429) {
      return {
        reason:
          error.retryAfterSeconds === undefined
            ? joinSentences(keyMessages.rateLimited, 'Retry in a moment')
            : messages.rateLimit.operation('Chat', error.retryAfterSeconds),
        code,
      };
    }
    if (error.status === 401)
      return { reason: joinSentences(messages.auth.requiredSignInAgain), code };
    if (error.status === 404 && code === 'conversations:not_found') {
      return { reason: chatFailureText.notFound, code };
    }
    if (error.status >= 500 && !error.message)
      return { reason: chatFailureText.serverFailed, code };
    return { reason: joinSentences(error.message || chatFailureText.serverFailed), code };
  }
  if (isNetworkFailure(error)) return { reason: chatFailureText.network };
  if (error instanceof Error && error.message) return { reason: joinSentences(error.message) };
  return { reason: chatFailureText.serverFailed };
};

/**
 * What a failed or cut-off reply says: the reason, then — only when some of the reply arrived —
 * that what arrived is saved.
 */
export const describeReplyFailure = (input: {
  reason: string | null | undefined;
  arrived: boolean;
  failed: boolean;
}): string =>
  joinSentences(
    input.reason || (input.failed ? chatFailureText.replyFailed : chatFailureText.replyInterrupted),
    input.arrived && chatFailureText.arrivedIsSaved,
  );

/** The ways out a failure offers, by its code. */
export const failureActions = (code: string | null | undefined) => ({
  keys: Boolean(code && (code.startsWith('keys:') || code === 'provider:auth')),
  plan: Boolean(code?.startsWith('quota:')),
});
