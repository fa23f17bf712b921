import { describe, expect, it } from 'vitest';
import { messageFor } from '@chorus/shared/error-catalogue';
import { ApiError } from '../http/errors.ts';
import {
  checkSchedule,
  describeCron,
  occurrencesAfter,
  parseCron,
  previewSchedule,
} from './cron.ts';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

const refusal = (run: () => unknown): ApiError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('cron in a time zone', () => {
  it('keeps 09:00 Europe/Berlin at 09:00 local across the spring change (last Sunday of March)', () => {
    const cron = parseCron('0 9 * * *', 'Europe/Berlin');
    // 2025-03-30 is the last Sunday of March: CET (+01:00) becomes CEST (+02:00) at 02:00.
    expect(iso(occurrencesAfter(cron, new Date('2025-03-28T12:00:00Z'), 4))).toEqual([
      '2025-03-29T08:00:00.000Z',
      '2025-03-30T07:00:00.000Z',
      '2025-03-31T07:00:00.000Z',
      '2025-04-01T07:00:00.000Z',
    ]);
  });

  it('keeps 09:00 Europe/Berlin at 09:00 local across the autumn change (last Sunday of October)', () => {
    const cron = parseCron('0 9 * * *', 'Europe/Berlin');
    // 2025-10-26 is the last Sunday of October: CEST becomes CET at 03:00.
    expect(iso(occurrencesAfter(cron, new Date('2025-10-24T12:00:00Z'), 4))).toEqual([
      '2025-10-25T07:00:00.000Z',
      '2025-10-26T08:00:00.000Z',
      '2025-10-27T08:00:00.000Z',
      '2025-10-28T08:00:00.000Z',
    ]);
  });

  it('runs a time the spring change removes once, right after the gap, on the same day', () => {
    const cron = parseCron('30 2 * * *', 'Europe/Berlin');
    expect(iso(occurrencesAfter(cron, new Date('2025-03-29T12:00:00Z'), 2))).toEqual([
      '2025-03-30T01:00:00.000Z', // 03:00 CEST: 02:30 does not exist that night
      '2025-03-31T00:30:00.000Z',
    ]);
  });

  it('runs a time the autumn change repeats once, at its first pass', () => {
    const cron = parseCron('30 2 * * *', 'Europe/Berlin');
    expect(iso(occurrencesAfter(cron, new Date('2025-10-25T12:00:00Z'), 2))).toEqual([
      '2025-10-26T00:30:00.000Z', // 02:30 CEST; not again at 02:30 CET an hour later
      '2025-10-27T01:30:00.000Z',
    ]);
  });

  it('keeps an interval schedule going through the repeated hour, at its real-time interval', () => {
    const cron = parseCron('0 * * * *', 'Europe/Berlin');
    expect(iso(occurrencesAfter(cron, new Date('2025-10-25T23:30:00Z'), 4))).toEqual([
      '2025-10-26T00:00:00.000Z',
      '2025-10-26T01:00:00.000Z',
      '2025-10-26T02:00:00.000Z',
      '2025-10-26T03:00:00.000Z',
    ]);
  });

  it('describes an expression in words', () => {
    expect(describeCron('0 9 * * 1-5')).toBe('At 09:00, Monday through Friday');
    expect(previewSchedule('*/15 * * * *', 'UTC', new Date('2025-01-01T00:01:00Z'))).toEqual({
      description: 'Every 15 minutes',
      next_runs: [
        '2025-01-01T00:15:00.000Z',
        '2025-01-01T00:30:00.000Z',
        '2025-01-01T00:45:00.000Z',
        '2025-01-01T01:00:00.000Z',
        '2025-01-01T01:15:00.000Z',
      ],
    });
  });
});

describe('cron validation', () => {
  const now = new Date('2025-01-01T00:00:00Z');

  it('refuses an expression without five fields, saying how many it has', () => {
    for (const [expression, count] of [
      ['* * * *', 4],
      ['0 0 9 * * *', 6],
    ] as const) {
      const error = refusal(() => checkSchedule(expression, 'UTC', { now }));
      expect(error.status).toBe(400);
      expect(error.code).toBe('schedules:bad_cron');
      expect(error.message).toBe(
        messageFor('schedules:bad_cron', { reason: `it has ${count} fields instead of 5` }),
      );
    }
  });

  it('refuses a value out of range with the field it is in', () => {
    const error = refusal(() => checkSchedule('61 * * * *', 'UTC', { now }));
    expect(error.code).toBe('schedules:bad_cron');
    expect(error.message).toContain('the minute field holds 61');
  });

  it('refuses words that are no expression, and one that never fires', () => {
    expect(refusal(() => checkSchedule('every day', 'UTC', { now })).code).toBe(
      'schedules:bad_cron',
    );
    const never = refusal(() => checkSchedule('0 0 30 2 *', 'UTC', { now }));
    expect(never.message).toContain('it never fires');
  });

  it('refuses a zone that is not an IANA time zone, naming it', () => {
    const error = refusal(() => checkSchedule('0 9 * * *', 'Mars/Olympus', { now }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('schedules:bad_time_zone');
    expect(error.message).toBe(messageFor('schedules:bad_time_zone', { zone: 'Mars/Olympus' }));
  });

  it('refuses an expression that fires more often than the minimum interval', () => {
    const error = refusal(() =>
      checkSchedule('*/5 * * * *', 'UTC', { now, minIntervalMinutes: 15 }),
    );
    expect(error.code).toBe('schedules:too_frequent');
    expect(error.message).toBe(messageFor('schedules:too_frequent', { minutes: 15 }));
    // Uneven lists count by their shortest gap.
    expect(
      refusal(() => checkSchedule('0,10 * * * *', 'UTC', { now, minIntervalMinutes: 15 })).code,
    ).toBe('schedules:too_frequent');
    expect(() =>
      checkSchedule('*/15 * * * *', 'UTC', { now, minIntervalMinutes: 15 }),
    ).not.toThrow();
    expect(() => checkSchedule('* * * * *', 'UTC', { now })).not.toThrow();
  });

  it('counts a daily run across a DST change as a day apart, though the day has 23 hours', () => {
    // The next 60 runs from early March cross the spring change in Berlin.
    const march = new Date('2025-03-01T12:00:00Z');
    const daily = { now: march, minIntervalMinutes: 24 * 60 };
    expect(() => checkSchedule('0 9 * * *', 'Europe/Berlin', daily)).not.toThrow();
    expect(() =>
      checkSchedule('0 9 * * 1', 'Europe/Berlin', { now: march, minIntervalMinutes: 7 * 24 * 60 }),
    ).not.toThrow();
    expect(refusal(() => checkSchedule('0 9,21 * * *', 'Europe/Berlin', daily)).code).toBe(
      'schedules:too_frequent',
    );
  });
});
