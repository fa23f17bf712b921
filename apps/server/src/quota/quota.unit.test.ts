import { describe, expect, it } from 'vitest';
import { planMessages } from '@chorus/shared/messages';
import { formatWait, nextUtcMidnight, quotaExceededMessage, utcDate } from './quota.ts';

describe('quota timing', () => {
  it('counts on the UTC date and resets at the next 00:00 UTC', () => {
    const now = new Date('2025-03-31T23:59:30.000Z');
    expect(utcDate(now)).toBe('2025-03-31');
    expect(nextUtcMidnight(now).toISOString()).toBe('2025-04-01T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2025-04-01T00:00:00.000Z')).toISOString()).toBe(
      '2025-04-02T00:00:00.000Z',
    );
  });

  it('says how long until the reset in hours and minutes, rounded up', () => {
    expect(formatWait((5 * 60 + 12) * 60_000)).toBe('5 h 12 min');
    expect(formatWait((5 * 60 + 11) * 60_000 + 1)).toBe('5 h 12 min');
    expect(formatWait(3 * 60 * 60_000)).toBe('3 h');
    expect(formatWait(12 * 60_000)).toBe('12 min');
    expect(formatWait(10_000)).toBe('1 min');
    expect(formatWait(0)).toBe('1 min');
  });

  it('names the limit, the plan and when it resets', () => {
    const message = quotaExceededMessage(20, 'Free', new Date('2025-03-31T18:48:00.000Z'));
    expect(message).toBe(planMessages.quotaExceeded(20, 'Free', '5 h 12 min'));
    expect(message).toBe(
      'You have used all 20 prompts of your Free plan for today. The limit resets at 00:00 UTC (in 5 h 12 min).',
    );
  });
});
