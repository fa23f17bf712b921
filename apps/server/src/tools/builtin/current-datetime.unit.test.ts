import { describe, expect, it } from 'vitest';
import { currentDatetime } from './current-datetime.ts';

// 12:34:56 UTC on Sunday 10 March 2024: New York moved to summer time that morning.
const now = new Date('2024-03-10T12:34:56Z');

describe('current_datetime', () => {
  it('gives UTC when no zone is asked for', () => {
    expect(currentDatetime({}, now)).toEqual({
      time_zone: 'UTC',
      utc: '2024-03-10T12:34:56.000Z',
      local: '2024-03-10T12:34:56+00:00',
      local_date: '2024-03-10',
      local_time: '12:34:56',
      weekday: 'Sunday',
      utc_offset: '+00:00',
    });
  });

  it.each([
    ['Europe/Paris', '2024-03-10T13:34:56+01:00', 'Sunday'],
    ['America/New_York', '2024-03-10T08:34:56-04:00', 'Sunday'],
    ['Asia/Kolkata', '2024-03-10T18:04:56+05:30', 'Sunday'],
    ['Pacific/Kiritimati', '2024-03-11T02:34:56+14:00', 'Monday'],
    ['America/Los_Angeles', '2024-03-10T05:34:56-07:00', 'Sunday'],
  ])('gives the local date, time and weekday in %s', (zone, local, weekday) => {
    const answer = currentDatetime({ time_zone: zone }, now);
    expect(answer).toMatchObject({ time_zone: zone, local, weekday, utc: now.toISOString() });
  });

  it('writes a zone asked in other capitals the usual way', () => {
    expect(currentDatetime({ time_zone: 'europe/paris' }, now)).toMatchObject({
      time_zone: 'Europe/Paris',
      local_time: '13:34:56',
    });
  });

  it('answers an unknown zone with an error that names it', () => {
    expect(currentDatetime({ time_zone: 'Mars/Olympus_Mons' }, now)).toEqual({
      error:
        '"Mars/Olympus_Mons" is not a time zone Chorus knows. Use an IANA name such as Europe/Paris, America/New_York or UTC.',
    });
  });
});
