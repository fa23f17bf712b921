import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import { messageFor } from '@chorus/shared/error-catalogue';
import { scheduleLimits } from '@chorus/shared/api/schedules';
import { ApiError } from '../http/errors.ts';

/**
 * Cron in a time zone (issue 19), with croner. Occurrences are computed in the schedule's IANA
 * zone, so `0 9 * * *` in Europe/Berlin is 09:00 local on both sides of a DST change (08:00 UTC
 * in winter, 07:00 UTC in summer).
 *
 * What croner does with local times a DST change removes or repeats (its README, "DST handling",
 * after Vixie cron):
 * - a fixed-time job (one value in each of minute and hour, such as `30 2 * * *`) whose time falls
 *   in the spring-forward gap runs once, at the first valid time after the gap (03:00 local);
 *   a time the fall-back repeats runs once, at its first pass (summer time);
 * - an interval job (a wildcard, step, range or list in minute or hour, such as `*\/30 * * * *`)
 *   skips times in the gap and runs on both passes through the repeated hour.
 */

/** How many occurrences are looked at to find the shortest interval of an expression. */
const INTERVAL_SAMPLE = 60;

const fieldCount = (expression: string) => expression.trim().split(/\s+/).length;

/** croner's reason for refusing a pattern, as a person would say it. */
const reasonOf = (expression: string, error: unknown): string => {
  const fields = fieldCount(expression);
  if (fields !== 5) return `it has ${fields} ${fields === 1 ? 'field' : 'fields'} instead of 5`;
  const raw = error instanceof Error ? error.message : String(error);
  const text = raw
    .replace(/^Cron\w*:\s*/, '')
    .trim()
    .replace(/\.$/, '');
  const range = /^Invalid value for (\w[\w-]*): (.+)$/i.exec(text);
  if (range) return `the ${range[1]!.toLowerCase()} field holds ${range[2]}, which is not allowed`;
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : 'croner could not read it';
};

const badCron = (reason: string) =>
  new ApiError(400, 'schedules:bad_cron', messageFor('schedules:bad_cron', { reason }));

/** True for a zone this runtime knows (IANA names, and UTC). */
export const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** A five-field expression in a zone, ready to give occurrences; a 400 for bad input. */
export const parseCron = (expression: string, timeZone: string): Cron => {
  if (!isTimeZone(timeZone)) {
    throw new ApiError(
      400,
      'schedules:bad_time_zone',
      messageFor('schedules:bad_time_zone', { zone: timeZone }),
    );
  }
  let cron: Cron;
  try {
    cron = new Cron(expression.trim(), { timezone: timeZone, paused: true, mode: '5-part' });
  } catch (error) {
    throw badCron(reasonOf(expression, error));
  }
  return cron;
};

/** The next `count` occurrences strictly after `after`. */
export const occurrencesAfter = (cron: Cron, after: Date, count: number): Date[] =>
  cron.nextRuns(count, after);

/** The first occurrence strictly after `after`, or null for one that never fires again. */
export const nextOccurrence = (cron: Cron, after: Date): Date | null => cron.nextRun(after);

/** The last occurrence at or before `at`, or null when there is none. */
export const latestOccurrence = (cron: Cron, at: Date): Date | null =>
  cron.previousRuns(1, new Date(at.getTime() + 1))[0] ?? null;

/** The expression in words, in English; the expression itself when cronstrue cannot say it. */
export const describeCron = (expression: string): string => {
  try {
    return cronstrue.toString(expression.trim(), { use24HourTimeFormat: true, verbose: false });
  } catch {
    return expression.trim();
  }
};

/** `at` as the wall clock of a zone reads it, in milliseconds as if that clock were UTC. */
const wallClock = (format: Intl.DateTimeFormat, at: Date): number => {
  const part = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour! % 24, part.minute!);
};

/**
 * The time between two occurrences as the schedule means it: the longer of the real time and
 * the wall-clock time in its zone. So `0 9 * * *` in Europe/Berlin stays one day apart across
 * the spring change (23 real hours), and an hourly job's two runs through the repeated autumn
 * hour stay an hour apart (the same wall-clock time).
 */
const gapBetween = (format: Intl.DateTimeFormat, a: Date, b: Date): number =>
  Math.max(b.getTime() - a.getTime(), wallClock(format, b) - wallClock(format, a));

/**
 * Checks an expression and zone the way a schedule is saved: valid, firing at all, and never
 * more often than `minIntervalMinutes` (a plan may ask for more; `plan` then names it in the
 * refusal).
 */
export const checkSchedule = (
  expression: string,
  timeZone: string,
  opts: { now: Date; minIntervalMinutes?: number; plan?: string },
): Cron => {
  const cron = parseCron(expression, timeZone);
  const sample = occurrencesAfter(cron, opts.now, INTERVAL_SAMPLE);
  if (sample.length === 0) throw badCron('it never fires, as no date matches it');
  const minutes = opts.minIntervalMinutes ?? scheduleLimits.minIntervalMinutes;
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  for (let i = 1; i < sample.length; i += 1) {
    if (gapBetween(format, sample[i - 1]!, sample[i]!) < minutes * 60_000) {
      throw new ApiError(
        400,
        'schedules:too_frequent',
        messageFor(
          'schedules:too_frequent',
          opts.plan === undefined ? { minutes } : { minutes, plan: opts.plan },
        ),
      );
    }
  }
  return cron;
};

/** What the preview shows while an expression is typed: its words and next five times. */
export const previewSchedule = (
  expression: string,
  timeZone: string,
  now: Date,
  limits: { minIntervalMinutes?: number; plan?: string } = {},
) => {
  const cron = checkSchedule(expression, timeZone, { now, ...limits });
  return {
    description: describeCron(expression),
    next_runs: occurrencesAfter(cron, now, 5).map((d) => d.toISOString()),
  };
};
