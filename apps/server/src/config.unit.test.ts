import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-config-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });

const secret32 = 'a'.repeat(32);

describe('loadConfig', () => {
  it('has defaults for a bare environment', () => {
    const config = load();
    expect(config).toMatchObject({
      port: 8080,
      appUrl: 'http://localhost:8080',
      databaseUrl: undefined,
      dataDir,
      smtpUrl: undefined,
      trustProxy: false,
      logLevel: 'info',
    });
    expect(config.trustedOrigins).toEqual(
      expect.arrayContaining(['http://localhost:8080', 'http://127.0.0.1:8080']),
    );
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['APP_URL', 'notaurl'],
    ['APP_URL', 'ftp://example.com'],
    ['SMTP_URL', 'http://x'],
    ['LOG_LEVEL', 'loud'],
    ['AUTH_SECRET', 'short'],
    ['KEY_ENCRYPTION_SECRET', 'short'],
    ['TRUST_PROXY', 'maybe'],
  ])('refuses %s=%s with a ConfigError naming the variable', (name, value) => {
    let thrown: unknown;
    try {
      load({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toContain(name);
  });

  it('does not echo a refused secret in its message', () => {
    expect(() => load({ AUTH_SECRET: 'hunter2-short' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2-short') }),
    );
  });

  it('treats blank values as unset', () => {
    const config = load({
      PORT: '',
      DATABASE_URL: '   ',
      APP_URL: '',
      SMTP_URL: ' ',
      LOG_LEVEL: '',
      AUTH_SECRET: '',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
      appUrl: 'http://localhost:8080',
      smtpUrl: undefined,
      logLevel: 'info',
    });
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('accepts a PostgreSQL URL, an SMTP URL and a public APP_URL', () => {
    const config = load({
      DATABASE_URL: 'postgresql://chorus@db:5432/chorus',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      APP_URL: 'https://chat.example.com/',
      PORT: '3000',
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgresql://chorus@db:5432/chorus',
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      appUrl: 'https://chat.example.com',
      port: 3000,
    });
    expect(config.trustedOrigins).toEqual(['https://chat.example.com']);
  });

  it('generates the secrets once into DATA_DIR, readable by the owner only', () => {
    const first = load();
    const second = load();
    expect(first.authSecret).not.toBe(first.keyEncryptionSecret);
    expect(second.authSecret).toBe(first.authSecret);
    expect(second.keyEncryptionSecret).toBe(first.keyEncryptionSecret);

    for (const [file, value] of [
      ['auth-secret', first.authSecret],
      ['key-encryption-secret', first.keyEncryptionSecret],
    ] as const) {
      const secretPath = path.join(dataDir, file);
      expect(readFileSync(secretPath, 'utf8').trim()).toBe(value);
      expect(statSync(secretPath).mode & 0o777).toBe(0o600);
    }
  });

  it('prefers secrets from the environment and writes no file for them', () => {
    const config = load({ AUTH_SECRET: secret32, KEY_ENCRYPTION_SECRET: `${secret32}b` });
    expect(config.authSecret).toBe(secret32);
    expect(config.keyEncryptionSecret).toBe(`${secret32}b`);
    expect(() => statSync(path.join(dataDir, 'auth-secret'))).toThrow();
  });

  it('adds TRUSTED_ORIGINS to the trusted origins', () => {
    const config = load({
      APP_URL: 'https://chat.example.com',
      TRUSTED_ORIGINS: 'https://admin.example.com, https://other.example.com ,',
    });
    expect(config.trustedOrigins).toEqual([
      'https://chat.example.com',
      'https://admin.example.com',
      'https://other.example.com',
    ]);
  });
});
