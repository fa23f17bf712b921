import { describe, expect, it } from 'vitest';
import { messages, planMessages } from '@chorus/shared/messages';
import { ApiError } from '@/lib/api-error';
import {
  chatFailureText,
  describeReplyFailure,
  describeSendFailure,
  failureActions,
} from './describe-chat-error';

describe('why a send failed', () => {
  it('says plainly that the browser is offline', () => {
    expect(describeSendFailure(new TypeError('Failed to fetch'), false)).toEqual({
      reason: chatFailureText.offline,
    });
  });

  it('tells a network failure from a refusal', () => {
    expect(describeSendFailure(new TypeError('Failed to fetch'), true)).toEqual({
      reason: chatFailureText.network,
    });
  });

  it('says when a rate-limited send may go again', () => {
    const error = new ApiError(429, 'Too many', {
      code: 'rate_limit:exceeded',
      retryAfterSeconds: 12,
    });
    expect(describeSendFailure(error, true)).toEqual({
      reason: messages.rateLimit.operation('Chat', 12),
      code: 'rate_limit:exceeded',
    });
  });

  it("keeps a plan refusal in the server's words, with its code for the plan link", () => {
    const text = planMessages.quotaExceeded(20, 'Free', '5 h 12 min');
    const failure = describeSendFailure(new ApiError(403, text, { code: 'quota:exceeded' }), true);
    expect(failure).toEqual({ reason: text, code: 'quota:exceeded' });
    expect(failureActions(failure.code)).toEqual({ keys: false, plan: true });
  });

  it('offers the API keys page when no key would serve', () => {
    const failure = describeSendFailure(
      new ApiError(400, 'No OpenAI API key is available to you.', { code: 'keys:missing' }),
      true,
    );
    expect(failureActions(failure.code)).toEqual({ keys: true, plan: false });
  });
});

describe('why a reply failed', () => {
  it('says what arrived is saved only when something arrived', () => {
    expect(
      describeReplyFailure({ reason: 'Try another provider.', arrived: false, failed: true }),
    ).toBe('Try another provider.');
    expect(
      describeReplyFailure({ reason: 'Try another provider.', arrived: true, failed: false }),
    ).toBe(`Try another provider. ${chatFailureText.arrivedIsSaved}`);
  });

  it('has words of its own when the server gave none', () => {
    expect(describeReplyFailure({ reason: null, arrived: false, failed: true })).toBe(
      chatFailureText.replyFailed,
    );
  });
});
