import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

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
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
