import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notADate, writtenDate } from './dates.arbitrary.ts';
import {
  isoDateOrDateTimeSchema,
  isoDateSchema,
  isoDateTimeSchema,
  isStorableDate,
} from './dates.ts';

const schemaFor = { date: isoDateSchema, 'date-time': isoDateTimeSchema };

describe('dates a request may name', () => {
  it('takes a date or date and time exactly when it exists and falls in 0001–9999', () => {
    fc.assert(
      fc.property(writtenDate, ({ text, kind, valid }) => {
        expect(schemaFor[kind].safeParse(text).success, text).toBe(valid);
        expect(isoDateOrDateTimeSchema.safeParse(text).success, text).toBe(valid);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what is no date at all', () => {
    fc.assert(
      fc.property(notADate, (text) => {
        expect(isoDateOrDateTimeSchema.safeParse(text).success, text).toBe(false);
      }),
    );
  });

  it('refuses the dates PostgreSQL refused and JavaScript gets wrong', () => {
    for (const text of [
      '0000-01-01',
      '0000-01-01T00:00:00Z',
      '0000-02-29',
      '2024-02-30',
      '2023-02-29',
      '2025-04-31',
      '2025-01-31T24:00:00Z',
      '+275760-09-13T00:00:00Z',
      '-000001-01-01T00:00:00Z',
      '+010000-01-01',
      // In range as written, outside it in UTC.
      '0001-01-01T00:00:00+00:01',
      '9999-12-31T23:59:59-00:01',
    ]) {
      expect(isoDateOrDateTimeSchema.safeParse(text).success, text).toBe(false);
    }
    for (const text of [
      '0001-01-01',
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:00:00-14:00',
      '9999-12-31',
      '9999-12-31T23:59:59.999Z',
      '2024-02-29',
    ]) {
      expect(isoDateOrDateTimeSchema.safeParse(text).success, text).toBe(true);
    }
  });

  it('calls an instant storable when its ISO text is a four-digit year PostgreSQL reads', () => {
    const anyInstant = fc.date({
      min: new Date(-8.64e15),
      max: new Date(8.64e15),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(anyInstant, (at) => {
        const text = at.toISOString();
        expect(isStorableDate(at), text).toBe(/^\d{4}-/.test(text) && !text.startsWith('0000'));
      }),
      { numRuns: 2000 },
    );
    expect(isStorableDate(new Date(NaN))).toBe(false);
  });
});
