import { createCaches } from './cache/caches.ts';
import { createInvalidation } from './cache/invalidation.ts';
import type { Config } from './config.ts';
import { createSecretBox } from './crypto/secret-box.ts';
import type { Database } from './db/client.ts';
import { createInstanceLease } from './db/instance-lease.ts';
import { createMailer } from './email/transport.ts';
import type { Deps } from './http/app-env.ts';
import { createRateLimiters } from './http/rate-limiters.ts';
import { createJobQueue } from './jobs/queue.ts';
import { createLiveStreams } from './lifecycle/live-streams.ts';
import { createPendingWrites } from './lifecycle/pending-writes.ts';
import type { Logger } from './logger.ts';
import { createAuth } from './services/auth/auth.ts';
import { createRealtime } from './services/realtime/hub.ts';
import { createStorageDriver } from './storage/create-driver.ts';
import { createLinkSigner } from './storage/signed-links.ts';

/**
 * Wires the services over one database; used by main.ts and by the integration tests alike.
 * Nothing here starts background work: main.ts starts the job queue with the job list.
 */
export const createDeps = (
  config: Config,
  database: Database,
  log: Logger,
  opts: { jobs?: { pollingIntervalSeconds?: number; cronIntervalSeconds?: number } } = {},
): Deps => {
  // Provider warnings (an unsupported setting for a model, say) belong in our logs, not stderr.
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) =>
    log.debug({ provider, model, warnings }, 'model call warnings');
  const box = createSecretBox(config.keyEncryptionSecret);
  const mailer = createMailer({
    db: database.db,
    box,
    smtpUrl: config.smtpUrl,
    defaultFrom: config.mailFrom,
    log,
  });
  const invalidation = createInvalidation(database, log);
  const realtime = createRealtime(database, log);
  return {
    config,
    database,
    log,
    mailer,
    auth: createAuth({
      db: database.db,
      config,
      mailer,
      log,
      // Every instance stops trusting the session's cookie cache, and closes its sockets.
      onSessionEnded: async (session) => {
        await Promise.all([
          invalidation.publish('sessions', session.id),
          realtime.endSession(session.userId, session.id),
        ]);
      },
    }),
    box,
    realtime,
    invalidation,
    caches: createCaches(invalidation),
    storage: createStorageDriver(config.storage),
    links: createLinkSigner(config.authSecret),
    jobs: createJobQueue({ database, log, ...opts.jobs }),
    instance: createInstanceLease({
      db: database.db,
      leaseMs: config.instanceLeaseMs,
      heartbeatMs: config.instanceHeartbeatMs,
      log,
    }),
    saves: createPendingWrites(log),
    streams: createLiveStreams(),
    limiters: createRateLimiters(
      database.sqlClient,
      database.driver === 'postgres' ? 'pool' : 'client',
      { dataPoints: config.rateLimitDataPoints },
    ),
  };
};
