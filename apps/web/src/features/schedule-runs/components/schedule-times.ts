/** The browser's own IANA time zone: where the user reads the times. */
export const userTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Every IANA zone the browser knows, the user's own and UTC always among them. */
export const timeZoneChoices = (): string[] => {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = new Set([...known, userTimeZone(), 'UTC']);
  return [...all].sort((a, b) => a.localeCompare(b));
};

const formats = new Map<string, Intl.DateTimeFormat>();

const formatFor = (timeZone: string | undefined) => {
  const key = timeZone ?? '';
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, {
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
      ...(timeZone ? { timeZone } : {}),
    });
    formats.set(key, format);
  }
  return format;
};

/** An instant in the user's time zone: "Mon, Mar 30, 2026, 09:00 AM GMT+2". */
export const formatInUserZone = (iso: string | null | undefined, none = '—'): string => {
  if (!iso) return none;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? none : formatFor(undefined).format(date);
};

/** The same instant in another zone (the schedule's), or null when the zone is not known. */
export const formatInZone = (iso: string, timeZone: string): string | null => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  try {
    return formatFor(timeZone).format(date);
  } catch {
    return null;
  }
};
