import type { Config } from './config.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/client.ts';
import { createMailer } from './email/transport.ts';
import type { Deps } from './http/app-env.ts';
import { createRateLimiters } from './http/rate-limit.ts';
import type { Logger } from './logger.ts';
import { createAuth } from './services/auth/auth.ts';
import { createRealtime } from './services/realtime/hub.ts';

/** Wires the services over one database; used by main.ts and by the integration tests alike. */
export const createDeps = (config: Config, database: Database, log: Logger): Deps => {
  // Provider warnings (an unsupported setting for a model, say) belong in our logs, not stderr.
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) =>
    log.debug({ provider, model, warnings }, 'model call warnings');
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    defaultFrom: config.mailFrom,
    log,
  });
  return {
    config,
    database,
    log,
    mailer,
    auth: createAuth({ db: database.db, config, mailer, log }),
    box: createSecretBox(config.keyEncryptionSecret),
    realtime: createRealtime(database, log),
    limiters: createRateLimiters(
      database.sqlClient,
      database.driver === 'postgres' ? 'pool' : 'client',
      { dataPoints: config.rateLimitDataPoints },
    ),
  };
};
