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
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_MAX_WAITING', '-1'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '1.5'],
    ['SHUTDOWN_GRACE_MS', '-5'],
    ['INSTANCE_LEASE_MS', '10'],
    ['INSTANCE_HEARTBEAT_MS', '50'],
    ['INSTANCE_HEARTBEAT_MS', 'often'],
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

  it('bounds every database wait and the shutdown by default, and takes other values', () => {
    expect(load()).toMatchObject({
      pool: { size: 20, maxWaiting: 1_000, connectTimeoutMs: 5_000, statementTimeoutMs: 15_000 },
      shutdownGraceMs: 20_000,
      instanceLeaseMs: 30_000,
      instanceHeartbeatMs: 10_000,
    });
    expect(
      load({
        DATABASE_POOL_SIZE: '50',
        DATABASE_POOL_MAX_WAITING: '200',
        DATABASE_CONNECT_TIMEOUT_MS: '2000',
        DATABASE_STATEMENT_TIMEOUT_MS: '60000',
        SHUTDOWN_GRACE_MS: '0',
        INSTANCE_LEASE_MS: '5000',
      }),
    ).toMatchObject({
      pool: { size: 50, maxWaiting: 200, connectTimeoutMs: 2_000, statementTimeoutMs: 60_000 },
      shutdownGraceMs: 0,
      instanceLeaseMs: 5_000,
    });
  });

  it('beats three times per lease unless told, and refuses a heartbeat longer than half the lease', () => {
    expect(load({ INSTANCE_LEASE_MS: '3000' })).toMatchObject({
      instanceLeaseMs: 3_000,
      instanceHeartbeatMs: 1_000,
    });
    expect(load({ INSTANCE_LEASE_MS: '600000' }).instanceHeartbeatMs).toBe(10_000);
    expect(
      load({ INSTANCE_LEASE_MS: '2000', INSTANCE_HEARTBEAT_MS: '500' }).instanceHeartbeatMs,
    ).toBe(500);
    expect(() => load({ INSTANCE_LEASE_MS: '10000', INSTANCE_HEARTBEAT_MS: '6000' })).toThrow(
      /INSTANCE_HEARTBEAT_MS: must be at most half of INSTANCE_LEASE_MS \(10000\)/,
    );
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

  describe('storage', () => {
    const s3 = {
      STORAGE_S3_BUCKET: 'chorus-files',
      STORAGE_S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      STORAGE_S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI-secret',
    };

    it('keeps files under DATA_DIR/storage without STORAGE_S3_* variables', () => {
      expect(load().storage).toEqual({ kind: 'local', root: path.join(dataDir, 'storage') });
    });

    it('uses S3 when the bucket and both keys are set, path-style for a custom endpoint', () => {
      expect(load(s3).storage).toEqual({
        kind: 's3',
        bucket: 'chorus-files',
        region: 'us-east-1',
        endpoint: undefined,
        forcePathStyle: false,
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI-secret',
      });
      const compatible = load({
        ...s3,
        STORAGE_S3_REGION: 'eu-central-1',
        STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000',
      }).storage;
      expect(compatible).toMatchObject({ region: 'eu-central-1', forcePathStyle: true });
      expect(
        load({
          ...s3,
          STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000',
          STORAGE_S3_FORCE_PATH_STYLE: 'false',
        }).storage,
      ).toMatchObject({ forcePathStyle: false });
    });

    it.each([
      [
        { STORAGE_S3_BUCKET: 'chorus-files' },
        'STORAGE_S3_ACCESS_KEY_ID, STORAGE_S3_SECRET_ACCESS_KEY',
      ],
      [{ ...s3, STORAGE_S3_SECRET_ACCESS_KEY: '' }, 'STORAGE_S3_SECRET_ACCESS_KEY'],
      [
        { STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9000' },
        'STORAGE_S3_BUCKET, STORAGE_S3_ACCESS_KEY_ID, STORAGE_S3_SECRET_ACCESS_KEY',
      ],
    ])('refuses a partial S3 configuration, naming what is missing (%o)', (env, missing) => {
      let thrown: unknown;
      try {
        load(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toContain(
        `${missing}: required with the other STORAGE_S3_*`,
      );
      expect((thrown as Error).message).not.toContain('wJalrXUtnFEMI');
    });

    it.each([
      ['STORAGE_S3_BUCKET', 'Not_A_Bucket'],
      ['STORAGE_S3_ENDPOINT', 'minio:9000'],
      ['STORAGE_S3_FORCE_PATH_STYLE', 'sometimes'],
    ])('refuses %s=%s naming the variable', (name, value) => {
      expect(() => load({ ...s3, [name]: value })).toThrow(name);
    });
  });
});
