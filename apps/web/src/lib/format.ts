/**
 * Dates, times and money as people here read them: the browser's own language, one format per
 * kind across the app. `null` shows as `none` (a dash unless said otherwise).
 */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});
const preciseFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});
const usdFormat = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

const format =
  (formatter: Intl.DateTimeFormat) =>
  (value: string | number | Date | null | undefined, none = '—'): string => {
    if (value === null || value === undefined) return none;
    const date = value instanceof Date ? value : new Date(value);
    return Number.isNaN(date.getTime()) ? none : formatter.format(date);
  };

/** "Nov 24, 2026" */
export const formatDate = format(dateFormat);
/** "Nov 24, 2026, 11:17 AM" */
export const formatDateTime = format(dateTimeFormat);
/** With seconds, for logs where the order within a minute matters. */
export const formatPreciseDateTime = format(preciseFormat);
/** "$12.50" from cents. */
export const formatUsdCents = (cents: number): string => usdFormat.format(cents / 100);
