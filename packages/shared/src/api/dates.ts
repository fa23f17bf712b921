import { z } from 'zod';
import type { ErrorCode } from '../error-codes.ts';

/**
 * The dates a request may name: years 0001 to 9999, UTC. PostgreSQL itself goes further (4713 BC
 * to 294276), but a date reaches it as JavaScript's ISO text, which writes year 0 as `0000` and
 * years past 9999 as `+010000`, and PostgreSQL refuses both; a date outside JavaScript's own
 * range (±275760) has no text at all. Within four-digit years every date means one thing to the
 * browser, the server and the database.
 */
export const EARLIEST_DATE = '0001-01-01';
export const LATEST_DATE = '9999-12-31';

const earliestMs = Date.parse(`${EARLIEST_DATE}T00:00:00.000Z`);
const latestMs = Date.parse(`${LATEST_DATE}T23:59:59.999Z`);

/** Whether `at` is a real instant between the first moment of 0001 and the last of 9999 (UTC). */
export const isStorableDate = (at: Date): boolean => {
  const ms = at.getTime();
  return ms >= earliestMs && ms <= latestMs;
};

/** The error code every date a request gets wrong answers with (see `dateIssue`). */
export const badDateCode = 'request:bad_date' satisfies ErrorCode;

export const dateRangeMessage = `Use a date from ${EARLIEST_DATE} to ${LATEST_DATE}`;

/** Options of a refinement whose failure answers `request:bad_date`, not the general code. */
const dateIssue = { message: dateRangeMessage, params: { code: badDateCode } };

/** A calendar day, `2025-01-31` (the calendar is checked: no 2025-02-30). */
export const isoDateSchema = z.iso
  .date({ error: 'Use a date such as 2025-01-31' })
  .refine((value) => {
    // A value of the wrong shape is the format check's to report.
    const at = new Date(`${value}T00:00:00.000Z`);
    return Number.isNaN(at.getTime()) || isStorableDate(at);
  }, dateIssue);

/** An instant with its offset, `2025-01-31T09:30:00Z` or `…+01:00`; in range once made UTC. */
export const isoDateTimeSchema = z.iso
  .datetime({ offset: true, error: 'Use a date and time such as 2025-01-31T09:30:00Z' })
  .refine((value) => {
    const at = new Date(value);
    return Number.isNaN(at.getTime()) || isStorableDate(at);
  }, dateIssue);

/** Either: a date and time, or a date alone (what that means, the field says). */
export const isoDateOrDateTimeSchema = z.union([isoDateTimeSchema, isoDateSchema], {
  error: `Use a date such as 2025-01-31 or a date and time such as 2025-01-31T09:30:00Z, from ${EARLIEST_DATE} to ${LATEST_DATE}`,
});
