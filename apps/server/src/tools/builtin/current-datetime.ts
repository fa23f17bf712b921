import { tool } from 'ai';
import { z } from 'zod';
import { toolFailure, type ToolFailure } from './tool-failure.ts';

export type CurrentDatetime = {
  /** The zone the local fields are in, as asked (or UTC). */
  time_zone: string;
  /** The instant in UTC, `2024-03-10T12:34:56.000Z`. */
  utc: string;
  /** The same instant written in the zone, `2024-03-10T13:34:56+01:00`. */
  local: string;
  local_date: string;
  local_time: string;
  weekday: string;
  utc_offset: string;
};

const formatterFor = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    weekday: 'long',
    timeZoneName: 'longOffset',
  });

/**
 * The current date and time in an IANA time zone (`Europe/Paris`), UTC when none is given.
 * `now` is for tests.
 */
export const currentDatetime = (
  input: { time_zone?: string },
  now: Date = new Date(),
): CurrentDatetime | ToolFailure => {
  const asked = input.time_zone?.trim() || 'UTC';
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = formatterFor(asked);
  } catch {
    return toolFailure(
      `"${asked.slice(0, 100)}" is not a time zone Chorus knows. Use an IANA name such as Europe/Paris, America/New_York or UTC.`,
    );
  }
  const parts = Object.fromEntries(
    formatter.formatToParts(now).map((part) => [part.type, part.value]),
  ) as Record<Intl.DateTimeFormatPartTypes, string>;
  const resolved = formatter.resolvedOptions().timeZone;
  // ICU answers some zones by an older name (Asia/Kolkata → Asia/Calcutta): keep the one asked
  // for, in the library's capitals when only those differ.
  const timeZone = resolved.toLowerCase() === asked.toLowerCase() ? resolved : asked;
  const offset = parts.timeZoneName.replace(/^GMT/, '') || '+00:00';
  const date = `${parts.year}-${parts.month}-${parts.day}`;
  const time = `${parts.hour}:${parts.minute}:${parts.second}`;
  return {
    time_zone: timeZone,
    utc: now.toISOString(),
    local: `${date}T${time}${offset}`,
    local_date: date,
    local_time: time,
    weekday: parts.weekday,
    utc_offset: offset,
  };
};

export const currentDatetimeTool = tool({
  description:
    'Gives the current date, time and weekday, in UTC and in a time zone. Use it whenever an ' +
    'answer depends on today’s date or the time of day.',
  inputSchema: z.object({
    time_zone: z
      .string()
      .max(100)
      .optional()
      .describe('An IANA time zone such as "Europe/Paris" or "America/New_York"; UTC if left out'),
  }),
  execute: async (input) => currentDatetime(input),
});
