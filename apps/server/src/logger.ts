import { pino, type DestinationStream, type LogFn, type Logger } from 'pino';

export type { Logger };

type Fields = Record<string, unknown>;

/** A quoted value inside a database message ('invalid input syntax for type uuid: "…"'). */
const withoutQuotedValues = (message: string) => message.replace(/"[^"]*"/g, '"…"');

/**
 * What is safe to log of an error: its kind, code and where it comes from. A failed query keeps
 * its SQL text but never its parameters (which hold sealed keys, chat text, names, searches), and
 * a database message loses the values it quotes. Nested causes are described the same way.
 */
export const describeError = (err: unknown, depth = 0): unknown => {
  if (!(err instanceof Error)) {
    return typeof err === 'string' ? withoutQuotedValues(err) : err;
  }
  const e = err as Error & Fields;
  const query = typeof e.query === 'string' ? e.query : undefined;
  const fields: Fields = {
    type: e.name,
    message: query ? 'Failed query' : withoutQuotedValues(e.message),
  };
  for (const key of ['code', 'severity', 'routine', 'constraint', 'table', 'column', 'status']) {
    if (typeof e[key] === 'string' || typeof e[key] === 'number') fields[key] = e[key];
  }
  if (query) fields.query = query;
  else if (e.stack) fields.stack = withoutQuotedValues(e.stack);
  if (e.cause !== undefined && depth < 3) fields.cause = describeError(e.cause, depth + 1);
  return fields;
};

const describeDetail = (detail: unknown) =>
  Array.isArray(detail) ? detail.map((item) => describeError(item)) : describeError(detail);

/** pino's number for `warn`: warnings and errors are the lines that repeat in a flood. */
const WARN_LEVEL = 40;

/** What tells one error from another: its kind, code and message, not its stack or fields. */
const signatureOf = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(signatureOf).join(';');
  if (value instanceof Error) {
    const { code } = value as Error & { code?: unknown };
    return `${value.name}|${String(code ?? '')}|${value.message}|${signatureOf(value.cause)}`;
  }
  return typeof value === 'string' ? value : '';
};

/**
 * The line's other fields, so that two warnings with the same words about different things (the
 * runs a sweep ended, say) are not taken for one; errors are told apart by `signatureOf`.
 */
const fieldsSignature = (fields: Fields): string => {
  const rest = Object.entries(fields).filter(
    ([name]) => name !== 'err' && name !== 'error' && name !== 'detail',
  );
  if (rest.length === 0) return '';
  try {
    return JSON.stringify(rest).slice(0, 2_000);
  } catch {
    return '';
  }
};

/**
 * A pino hook that writes a warning or error that repeats (the same message, error and fields) once,
 * then, every `intervalMs` while it goes on, one line with how often it came meanwhile: a
 * database outage made each instance write about 8 job-queue errors a second, stacks and all.
 */
const foldingRepeats = (intervalMs: number) => {
  type Seen = { logger: Logger; level: number; msg: string; repeated: number; at: number };
  const seen = new Map<string, Seen>();
  const report = () => {
    const now = Date.now();
    for (const [key, entry] of seen) {
      if (entry.repeated > 0) {
        const repeated = entry.repeated;
        const seconds = Math.max(1, Math.round((now - entry.at) / 1000));
        const line = `${entry.msg} (repeated ${repeated} more times in the last ${seconds} s)`;
        const write = entry.level >= 50 ? entry.logger.error : entry.logger.warn;
        entry.repeated = 0;
        entry.at = now;
        reporting = true;
        try {
          write.call(entry.logger, { repeated }, line);
        } finally {
          reporting = false;
        }
      } else if (now - entry.at >= intervalMs) {
        seen.delete(key);
      }
    }
  };
  let reporting = false;
  let timer: NodeJS.Timeout | undefined;
  return function logMethod(
    this: Logger,
    args: Parameters<LogFn>,
    method: LogFn,
    level: number,
  ): void {
    if (level < WARN_LEVEL || reporting) return method.apply(this, args);
    const [first, second] = args as unknown[];
    const fields = typeof first === 'object' && first !== null ? (first as Fields) : {};
    const msg = typeof first === 'string' ? first : typeof second === 'string' ? second : '';
    const error = first instanceof Error ? first : (fields.err ?? fields.error ?? fields.detail);
    const key = `${level}|${msg}|${signatureOf(error)}|${fieldsSignature(fields)}`;
    const entry = seen.get(key);
    if (entry) {
      entry.repeated += 1;
      return;
    }
    seen.set(key, { logger: this, level, msg, repeated: 0, at: Date.now() });
    if (!timer) {
      timer = setInterval(report, intervalMs);
      timer.unref();
    }
    return method.apply(this, args);
  };
};

/**
 * Structured JSON logs. Anything that could carry a secret is redacted by path, so a careless
 * `log.info({ req })` still cannot leak a cookie, a password or a provider key. Writes to stdout
 * unless given another destination (the tests read what was logged). With `foldRepeatsMs`, a
 * warning or error that repeats is written once, then counted (foldingRepeats).
 */
export const createLogger = (
  level: string,
  destination?: DestinationStream,
  opts: { foldRepeatsMs?: number } = {},
): Logger =>
  pino(
    {
      level,
      base: undefined,
      ...(opts.foldRepeatsMs && { hooks: { logMethod: foldingRepeats(opts.foldRepeatsMs) } }),
      serializers: { err: describeError, error: describeError, detail: describeDetail },
      redact: {
        paths: [
          'password',
          '*.password',
          'newPassword',
          'currentPassword',
          'token',
          '*.token',
          'apiKey',
          '*.apiKey',
          'api_key',
          '*.api_key',
          'headers.cookie',
          'headers.authorization',
          '*.headers.cookie',
          '*.headers.authorization',
          'smtpUrl',
          'databaseUrl',
          'secretAccessKey',
          '*.secretAccessKey',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
