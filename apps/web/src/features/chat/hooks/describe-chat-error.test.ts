import { describe, expect, it } from 'vitest';
import { planMessages } from '@chorus/shared/messages';
import { ApiError } from '@/lib/api-error';
import { describeChatError } from './describe-chat-error';

describe('describeChatError', () => {
  it("shows a plan refusal in the server's own words, as a plan problem", () => {
    const text = planMessages.quotaExceeded(20, 'Free', '5 h 12 min');
    expect(describeChatError(new ApiError(403, text, { code: 'quota:exceeded' }))).toEqual({
      kind: 'plan',
      text,
    });
    expect(
      describeChatError(new ApiError(403, 'not in plan', { code: 'quota:provider_not_allowed' })),
    ).toEqual({ kind: 'plan', text: 'not in plan' });
  });

  it('keeps other refusals as they were', () => {
    expect(describeChatError(new ApiError(400, 'x', { code: 'keys:missing' }))).toEqual({
      kind: 'missing-key',
    });
    expect(describeChatError(new ApiError(403, 'Forbidden', { code: 'auth:forbidden' }))).toEqual({
      kind: 'message',
      text: 'Forbidden',
    });
  });
});
