import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

/** A logger whose output is kept in memory, one parsed JSON line per entry. */
const capture = () => {
  const lines: string[] = [];
  const log = createLogger('info', { write: (line: string) => void lines.push(line) });
  return { log, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
};

describe('createLogger', () => {
  it('redacts passwords, provider keys and cookies', () => {
    const { log, lines, entries } = capture();
    log.info({
      password: 'hunter2-password',
      apiKey: 'sk-secret',
      headers: { cookie: 'chorus.session_token=cookie-secret' },
    });

    const output = lines.join('');
    for (const secret of ['hunter2-password', 'sk-secret', 'cookie-secret']) {
      expect(output).not.toContain(secret);
    }
    expect(entries()[0]).toMatchObject({
      password: '[redacted]',
      apiKey: '[redacted]',
      headers: { cookie: '[redacted]' },
    });
  });

  it('redacts secrets one level down, as in a logged request', () => {
    const { log, lines } = capture();
    log.warn(
      {
        req: { headers: { cookie: 'cookie-secret', authorization: 'Bearer bearer-secret' } },
        body: { password: 'body-password', token: 'reset-token-secret', api_key: 'cipher-secret' },
        newPassword: 'new-password-secret',
        currentPassword: 'current-password-secret',
        smtpUrl: 'smtp://user:smtp-secret@mail',
        databaseUrl: 'postgres://user:db-secret@db/chorus',
      },
      'request failed',
    );
    const output = lines.join('');
    expect(output).toContain('request failed');
    for (const secret of [
      'cookie-secret',
      'bearer-secret',
      'body-password',
      'reset-token-secret',
      'cipher-secret',
      'new-password-secret',
      'current-password-secret',
      'smtp-secret',
      'db-secret',
    ]) {
      expect(output, secret).not.toContain(secret);
    }
  });

  it('keeps what is safe to read', () => {
    const { log, entries } = capture();
    log.info({ userId: 'user-1', provider: 'openai' }, 'default keys granted');
    expect(entries()[0]).toMatchObject({
      level: 30,
      msg: 'default keys granted',
      userId: 'user-1',
      provider: 'openai',
    });
  });

  it('writes nothing below its level', () => {
    const lines: string[] = [];
    const log = createLogger('silent', { write: (line: string) => void lines.push(line) });
    log.error({ password: 'x' }, 'hidden');
    expect(lines).toEqual([]);
  });

  it('writes a repeated warning or error once, then its count per interval, without the stacks', async () => {
    const lines: string[] = [];
    const log = createLogger(
      'info',
      { write: (line: string) => void lines.push(line) },
      {
        foldRepeatsMs: 200,
      },
    );
    const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const refused = () =>
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 50; i++) log.error({ err: refused() }, 'job queue error');
    log.error({ err: new Error('something else') }, 'job queue error');
    for (let i = 0; i < 3; i++) log.warn({ path: '/rest/v1/x' }, 'database unavailable');
    // The same words about something else are another line.
    log.warn({ path: '/rest/v1/y' }, 'database unavailable');
    log.info('not folded');
    log.info('not folded');
    expect(entries().map((e) => e.msg)).toEqual([
      'job queue error',
      'job queue error',
      'database unavailable',
      'database unavailable',
      'not folded',
      'not folded',
    ]);
    expect(entries()[0]).toMatchObject({ err: { code: 'ECONNREFUSED' } });

    await new Promise((r) => setTimeout(r, 300));
    const counted = entries().slice(6);
    expect(counted.map((e) => [e.level, e.msg, e.repeated])).toEqual([
      [50, 'job queue error (repeated 49 more times in the last 1 s)', 49],
      [40, 'database unavailable (repeated 2 more times in the last 1 s)', 2],
    ]);
    expect(lines.slice(6).join('')).not.toContain('stack');

    // Quiet for an interval: forgotten, and written in full when it comes again.
    await new Promise((r) => setTimeout(r, 500));
    log.error({ err: refused() }, 'job queue error');
    expect(entries().at(-1)).toMatchObject({
      msg: 'job queue error',
      err: { code: 'ECONNREFUSED' },
    });
  });
});
