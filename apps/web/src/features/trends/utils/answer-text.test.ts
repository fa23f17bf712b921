import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { answerStatusText, describeFailure } from './answer-text';

describe('what the trends answer says went wrong', () => {
  it('sends a missing or refused key to the keys page and its help article', () => {
    const failure = describeFailure(
      new ApiError(400, 'No OpenAI API key is available to you.', { code: 'keys:missing' }),
      false,
    );
    expect(failure.message).toBe('No OpenAI API key is available to you.');
    expect(failure.action).toEqual({ to: '/copy-api-keys', label: 'Open API keys' });
    expect(failure.help).toMatch(/^\/help\/keys-and-providers/);
  });

  it('sends a plan refusal to the plan, and says when to try again after a rate limit', () => {
    expect(
      describeFailure(new ApiError(403, 'Daily limit reached.', { code: 'quota:exceeded' }), false)
        .action,
    ).toEqual({ to: '/profile', label: 'See your plan' });
    expect(
      describeFailure(
        new ApiError(429, 'Too many requests.', {
          code: 'rate_limit:exceeded',
          retryAfterSeconds: 9.2,
        }),
        false,
      ).message,
    ).toBe('Too many requests. Try again in 10 s.');
  });

  it('tells a connection lost partway from one that never got through', () => {
    expect(describeFailure(new TypeError('network error'), true).message).toMatch(
      /^The answer stopped partway/,
    );
    expect(describeFailure(new TypeError('Failed to fetch'), false).message).toMatch(
      /^The question could not be sent/,
    );
  });

  it('says where the answer stands', () => {
    expect(answerStatusText({ status: 'streaming', text: '' })).toBe('Waiting for the model…');
    expect(answerStatusText({ status: 'streaming', text: 'Co' })).toBe('Answering…');
    expect(answerStatusText({ status: 'stopped', text: 'Co' })).toBe(
      'Stopped. The answer so far is kept.',
    );
    expect(answerStatusText({ status: 'done', text: '' })).toMatch(/answered with nothing/);
  });
});
