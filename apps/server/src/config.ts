import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { serverDataPointsDefault } from '@chorus/shared/limits';
import { providerIds, type ProviderId } from '@chorus/shared/providers';
import { defaultPoolSettings, type PoolSettings } from './db/postgres-pool.ts';
import type { S3Settings } from './storage/s3-driver.ts';

/**
 * Every environment variable Chorus reads, validated once at boot. A bad value stops the start
 * with a message naming the variable (STYLE habit 5). Nothing else reads process.env.
 */
const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const secret = z.string().min(32, 'must be at least 32 characters');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int('must be a whole number').min(1).max(1_000).optional(),
  DATABASE_POOL_MAX_WAITING: z.coerce
    .number()
    .int('must be a whole number')
    .min(0)
    .max(100_000)
    .optional(),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(100)
    .max(120_000)
    .optional(),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(100)
    .max(3_600_000)
    .optional(),
  APP_URL: httpUrl.optional(),
  TRUSTED_ORIGINS: z.string().optional(),
  AUTH_SECRET: secret.optional(),
  KEY_ENCRYPTION_SECRET: secret.optional(),
  TRUST_PROXY: booleanFlag.default(false),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Chorus <no-reply@chorus.local>'),
  SUPPORT_EMAIL: z.email().default('support@chorus.local'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().trim().min(8).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(8).optional(),
  STRIPE_API_URL: httpUrl.optional(),
  RATE_LIMIT_DATA_POINTS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1)
    .max(1_000_000)
    .default(serverDataPointsDefault),
  PROVIDER_IDLE_TIMEOUT_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(1_000)
    .max(600_000)
    .default(60_000),
  SHUTDOWN_GRACE_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(0)
    .max(600_000)
    .default(20_000),
  INSTANCE_LEASE_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(1_000)
    .max(600_000)
    .default(30_000),
  INSTANCE_HEARTBEAT_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds')
    .min(100)
    .max(60_000)
    .optional(),
  STORAGE_S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .optional(),
  STORAGE_S3_REGION: z.string().trim().min(1).optional(),
  STORAGE_S3_ENDPOINT: httpUrl.optional(),
  STORAGE_S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  STORAGE_S3_FORCE_PATH_STYLE: booleanFlag.optional(),
  ...Object.fromEntries(
    providerIds.map((id) => [`${id.toUpperCase()}_BASE_URL`, httpUrl.optional()]),
  ),
  ...Object.fromEntries(
    providerIds.map((id) => [
      `SYSTEM_KEY_${id.toUpperCase()}`,
      z.string().trim().min(1).optional(),
    ]),
  ),
});

/** Public endpoints of each provider (ARCHITECTURE §4); Ollama's is the server root. */
export const defaultProviderBaseUrls: Record<ProviderId, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta',
  deepseek: 'https://api.deepseek.com',
  mistral: 'https://api.mistral.ai/v1',
  perplexity: 'https://api.perplexity.ai',
  ollama: 'http://localhost:11434',
  openrouter: 'https://openrouter.ai/api/v1',
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The PostgreSQL pool's size and bounded waits (unused on the embedded database). */
  pool: PoolSettings;
  appUrl: string;
  trustedOrigins: string[];
  authSecret: string;
  keyEncryptionSecret: string;
  trustProxy: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  webDistDir: string | undefined;
  /** Set when both Stripe keys are; without it admins assign plans by hand. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | undefined;
  /** Where file bytes go: `DATA_DIR/storage` unless every STORAGE_S3_* variable it needs is set. */
  storage: { kind: 'local'; root: string } | ({ kind: 's3' } & S3Settings);
  /** Requests per user (or guest address) per 60 s over /rest/v1 and /functions/v1 (ADR 009). */
  rateLimitDataPoints: number;
  /** A streaming provider silent this long mid-reply is cut off ("provider stopped responding"). */
  providerIdleTimeoutMs: number;
  /** On SIGTERM, how long streaming replies may go on before they are interrupted. */
  shutdownGraceMs: number;
  /**
   * How long an instance counts as alive after its last heartbeat: its runs stay its own. Once
   * it lapses, the runs are ended or resumed by the next sweep (ADR 018).
   */
  instanceLeaseMs: number;
  /** How often an instance renews its lease, and how often the sweep looks for lapsed ones. */
  instanceHeartbeatMs: number;
  providerBaseUrls: Record<ProviderId, string>;
  /** Keys from SYSTEM_KEY_<PROVIDER>, seeded as system keys at start. */
  systemKeySeeds: Partial<Record<ProviderId, string>>;
};

/**
 * Three heartbeats per lease, at most every 10 s: with the 30 s lease a stopped instance's runs
 * end or resume within about 42 s (the lease, one sweep interval, the job queue's poll; ADR 018).
 */
const defaultHeartbeatMs = (leaseMs: number) => Math.min(10_000, Math.floor(leaseMs / 3));

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Blank variables count as unset, as most deployment tools write them. */
const withoutBlanks = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''));

/** A secret from the environment, or one generated once and kept in DATA_DIR (mode 0600). */
const persistentSecret = (dataDir: string, file: string, fromEnv: string | undefined) => {
  if (fromEnv) return fromEnv;
  const secretPath = path.join(dataDir, file);
  try {
    return readFileSync(secretPath, 'utf8').trim();
  } catch {
    const generated = randomBytes(32).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(secretPath, `${generated}\n`, { mode: 0o600, flag: 'wx' });
    return generated;
  }
};

const s3Required = [
  'STORAGE_S3_BUCKET',
  'STORAGE_S3_ACCESS_KEY_ID',
  'STORAGE_S3_SECRET_ACCESS_KEY',
] as const;

/** All or nothing: a half-configured S3 must stop the start, never fall back to local disk. */
const storageSettings = (e: z.infer<typeof envSchema>, dataDir: string): Config['storage'] => {
  const anySet = Object.keys(e).some((name) => name.startsWith('STORAGE_S3_'));
  if (!anySet) return { kind: 'local', root: path.join(dataDir, 'storage') };
  const missing = s3Required.filter((name) => e[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid environment: ${missing.join(', ')}: required with the other STORAGE_S3_* variables. Set ${s3Required.join(', ')} together (STORAGE_S3_REGION, STORAGE_S3_ENDPOINT and STORAGE_S3_FORCE_PATH_STYLE are optional), or none of them to keep files under DATA_DIR/storage.`,
    );
  }
  return {
    kind: 's3',
    bucket: e.STORAGE_S3_BUCKET!,
    region: e.STORAGE_S3_REGION ?? 'us-east-1',
    endpoint: e.STORAGE_S3_ENDPOINT,
    // S3-compatible stores reached by endpoint usually serve buckets by path, not by host name.
    forcePathStyle: e.STORAGE_S3_FORCE_PATH_STYLE ?? e.STORAGE_S3_ENDPOINT !== undefined,
    accessKeyId: e.STORAGE_S3_ACCESS_KEY_ID!,
    secretAccessKey: e.STORAGE_S3_SECRET_ACCESS_KEY!,
  };
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = envSchema.safeParse(withoutBlanks(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const instanceHeartbeatMs = e.INSTANCE_HEARTBEAT_MS ?? defaultHeartbeatMs(e.INSTANCE_LEASE_MS);
  // One late heartbeat (a database blip, a busy moment) must not end a live instance's runs.
  if (instanceHeartbeatMs * 2 > e.INSTANCE_LEASE_MS) {
    throw new ConfigError(
      `Invalid environment: INSTANCE_HEARTBEAT_MS: must be at most half of INSTANCE_LEASE_MS (${e.INSTANCE_LEASE_MS}), so that one late heartbeat does not count a live instance as gone. Lower INSTANCE_HEARTBEAT_MS or raise INSTANCE_LEASE_MS.`,
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const storage = storageSettings(e, dataDir);
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const extraOrigins = (e.TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const localOrigins =
    new URL(appUrl).hostname === 'localhost'
      ? [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`]
      : [];
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pool: {
      size: e.DATABASE_POOL_SIZE ?? defaultPoolSettings.size,
      maxWaiting: e.DATABASE_POOL_MAX_WAITING ?? defaultPoolSettings.maxWaiting,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS ?? defaultPoolSettings.connectTimeoutMs,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS ?? defaultPoolSettings.statementTimeoutMs,
    },
    appUrl,
    trustedOrigins: [...new Set([new URL(appUrl).origin, ...localOrigins, ...extraOrigins])],
    authSecret: persistentSecret(dataDir, 'auth-secret', e.AUTH_SECRET),
    keyEncryptionSecret: persistentSecret(
      dataDir,
      'key-encryption-secret',
      e.KEY_ENCRYPTION_SECRET,
    ),
    trustProxy: e.TRUST_PROXY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiUrl: e.STRIPE_API_URL,
          }
        : undefined,
    storage,
    rateLimitDataPoints: e.RATE_LIMIT_DATA_POINTS,
    providerIdleTimeoutMs: e.PROVIDER_IDLE_TIMEOUT_MS,
    instanceLeaseMs: e.INSTANCE_LEASE_MS,
    instanceHeartbeatMs,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    providerBaseUrls: Object.fromEntries(
      providerIds.map((id) => [
        id,
        (
          (e as unknown as Record<string, string | undefined>)[`${id.toUpperCase()}_BASE_URL`] ??
          defaultProviderBaseUrls[id]
        ).replace(/\/+$/, ''),
      ]),
    ) as Record<ProviderId, string>,
    systemKeySeeds: Object.fromEntries(
      providerIds.flatMap((id) => {
        const key = (e as unknown as Record<string, string | undefined>)[
          `SYSTEM_KEY_${id.toUpperCase()}`
        ];
        return key ? [[id, key]] : [];
      }),
    ),
  };
};
