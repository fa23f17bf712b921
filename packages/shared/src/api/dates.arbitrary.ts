// Test support, not imported by the app: fast-check's generator of dates as a request writes
// them, good and bad, each with whether `./dates.ts` must accept it (worked out here from the
// parts, not by the code under test). Used by the unit test beside it and the server's sweep.
import fc from 'fast-check';
import { EARLIEST_DATE, LATEST_DATE } from './dates.ts';

export type WrittenDate = {
  text: string;
  kind: 'date' | 'date-time';
  /** Whether a field of this kind must take it: a real day and time, in years 0001–9999. */
  valid: boolean;
};

const pad = (n: number, width: number) => String(Math.abs(n)).padStart(width, '0');

/** As ISO 8601 writes a year: four digits, or a sign and six outside 0000–9999 (as JS does). */
const writeYear = (year: number) =>
  year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(year, 6)}`;

const daysIn = (year: number, month: number) => {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
};

const earliest = Date.parse(`${EARLIEST_DATE}T00:00:00.000Z`);
const latest = Date.parse(`${LATEST_DATE}T23:59:59.999Z`);

/** The UTC milliseconds of a well-formed date and time (years 0–9999, where Date.UTC misleads). */
const instant = (p: {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  offsetMinutes: number;
}) => {
  const at = new Date(0);
  at.setUTCFullYear(p.year, p.month - 1, p.day);
  at.setUTCHours(p.hour, p.minute, p.second, p.ms);
  return at.getTime() - p.offsetMinutes * 60_000;
};

const year = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 9999 }) },
  { weight: 2, arbitrary: fc.constantFrom(-1, 0, 1, 9999, 10000, 99999, 275760, 275761) },
  { weight: 1, arbitrary: fc.integer({ min: -999_999, max: 999_999 }) },
);

const parts = fc.record({
  year,
  month: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: 12 }) },
    fc.constantFrom(0, 13),
  ),
  day: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: 28 }) },
    fc.integer({ min: 29, max: 32 }),
    fc.constant(0),
  ),
  hour: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 23 }) }, fc.constant(24)),
  minute: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 59 }) }, fc.constant(60)),
  second: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 59 }) }, fc.constant(60)),
  ms: fc.integer({ min: 0, max: 999 }),
  fraction: fc.boolean(),
  /** Minutes east of UTC; ±14:00 is the widest real offset, ±23:59 the widest written one. */
  offsetMinutes: fc.oneof(
    { weight: 2, arbitrary: fc.constant(0) },
    fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
  ),
  zulu: fc.boolean(),
});

/** A date or a date and time built from parts that may be out of range or not exist at all. */
export const writtenDate: fc.Arbitrary<WrittenDate> = fc
  .tuple(parts, fc.constantFrom<WrittenDate['kind']>('date', 'date-time'))
  .map(([p, kind]) => {
    const day = `${writeYear(p.year)}-${pad(p.month, 2)}-${pad(p.day, 2)}`;
    const calendar =
      p.year >= 0 &&
      p.year <= 9999 &&
      p.month >= 1 &&
      p.month <= 12 &&
      p.day >= 1 &&
      p.day <= daysIn(p.year, p.month);
    if (kind === 'date') {
      const at = calendar
        ? instant({ ...p, hour: 0, minute: 0, second: 0, ms: 0, offsetMinutes: 0 })
        : NaN;
      return { text: day, kind, valid: at >= earliest && at <= latest };
    }
    const offsetMinutes = p.zulu ? 0 : p.offsetMinutes;
    const offset = p.zulu
      ? 'Z'
      : `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(offsetMinutes / 60), 2)}:${pad(offsetMinutes % 60, 2)}`;
    const time = `${pad(p.hour, 2)}:${pad(p.minute, 2)}:${pad(p.second, 2)}${p.fraction ? `.${pad(p.ms, 3)}` : ''}`;
    const clock = p.hour <= 23 && p.minute <= 59 && p.second <= 59;
    const at = calendar && clock ? instant({ ...p, offsetMinutes }) : NaN;
    return { text: `${day}T${time}${offset}`, kind, valid: at >= earliest && at <= latest };
  });

/** Text that is no date at all, or nearly one. */
export const notADate: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    'today',
    '2025-1-31',
    '2025-01-31 09:30:00',
    '2025-01-31T09:30Z',
    '2025-01-31T09:30:00',
    '20250131',
    '1738316400000',
    '2025-W05-5',
    'Infinity',
    '-infinity',
    'epoch',
    'now',
    '2025-01-31T09:30:00+14',
    '2025-01-31T09:30:00.Z',
  ),
);
