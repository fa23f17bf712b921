import { pino, type DestinationStream, type Logger } from 'pino';

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

/**
 * Structured JSON logs. Anything that could carry a secret is redacted by path, so a careless
 * `log.info({ req })` still cannot leak a cookie, a password or a provider key. Writes to stdout
 * unless given another destination (the tests read what was logged).
 */
export const createLogger = (level: string, destination?: DestinationStream): Logger =>
  pino(
    {
      level,
      base: undefined,
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
