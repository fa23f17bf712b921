import { describe, expect, it } from 'vitest';
import {
  DatabaseUnavailableError,
  isClientTimeout,
  isConnectionLost,
  isDatabaseUnavailable,
} from './database-errors.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As drizzle wraps a driver error. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('database errors', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a server shutting down', withCode('57P01')],
    ['a server starting up', withCode('57P03')],
    ['a connection failure', withCode('08006')],
    ['a connection cut', new Error('Connection terminated unexpectedly')],
    ['IPv4 and IPv6 both refused', new AggregateError([withCode('ECONNREFUSED')])],
  ])('counts %s as unavailable and as a lost connection, wrapped or not', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
    expect(isConnectionLost(wrapped(error))).toBe(true);
    expect(isClientTimeout(wrapped(error))).toBe(false);
  });

  it.each([
    ['an answer that did not come in time', new Error('Query read timeout')],
    [
      'a connection that did not open in time',
      new Error('Connection terminated due to connection timeout'),
    ],
    ['a wait for a pooled connection', new Error('timeout exceeded when trying to connect')],
  ])(
    'counts %s as unavailable (503) and as our own timeout, which a busy process may cause, not as a lost link',
    (_name, error) => {
      expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
      expect(isClientTimeout(wrapped(error))).toBe(true);
      expect(isConnectionLost(wrapped(error))).toBe(false);
    },
  );

  it.each([
    ['a statement over its timeout', withCode('57014')],
    ['too many connections', withCode('53300')],
    ['a full pool queue', new DatabaseUnavailableError('All connections are busy')],
  ])('counts %s as unavailable (503) but not as a lost link', (_name, error) => {
    expect(isDatabaseUnavailable(wrapped(error))).toBe(true);
    expect(isConnectionLost(wrapped(error))).toBe(false);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['anything else', new Error('boom')],
  ])('does not count %s', (_name, error) => {
    expect(isDatabaseUnavailable(wrapped(error))).toBe(false);
    expect(isConnectionLost(wrapped(error))).toBe(false);
  });
});
