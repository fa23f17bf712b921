import type { Role } from '@chorus/shared/roles';
import type { Caches } from '../cache/caches.ts';
import type { Invalidation } from '../cache/invalidation.ts';
import type { Config } from '../config.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/client.ts';
import type { InstanceLease } from '../db/instance-lease.ts';
import type { Mailer } from '../email/transport.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { LiveStreams } from '../lifecycle/live-streams.ts';
import type { PendingWrites } from '../lifecycle/pending-writes.ts';
import type { Logger } from '../logger.ts';
import type { Auth } from '../services/auth/auth.ts';
import type { Realtime } from '../services/realtime/hub.ts';
import type { RateLimiters } from './rate-limiters.ts';
import type { StorageDriver } from '../storage/driver.ts';
import type { LinkSigner } from '../storage/signed-links.ts';

export type Deps = {
  config: Config;
  database: Database;
  log: Logger;
  auth: Auth;
  mailer: Mailer;
  limiters: RateLimiters;
  /** Seals provider keys at rest. */
  box: SecretBox;
  realtime: Realtime;
  /** Tells every instance's caches that something they hold changed. */
  invalidation: Invalidation;
  caches: Caches;
  /** Where file bytes live: local disk or an S3-compatible store (ARCHITECTURE §6). */
  storage: StorageDriver;
  /** Signs and checks short-lived download links (key derived from AUTH_SECRET). */
  links: LinkSigner;
  /** Background work and cron schedules (pg-boss); started by main.ts with the job list. */
  jobs: JobQueue;
  /** This process among the server instances: its id stamps the replies it streams. */
  instance: InstanceLease;
  /** Saves retried through a database outage (a reply's last write, usage rows). */
  saves: PendingWrites;
  /** The chat streams in progress, for a graceful stop. */
  streams: LiveStreams;
};

export type SessionUser = Auth['$Infer']['Session']['user'];
export type SessionInfo = Auth['$Infer']['Session']['session'];

export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser | null;
    session: SessionInfo | null;
    /** The signed-in user's role, read with the session by loadSession (null: signed out). */
    role: Role | null;
    /** Names the request in the logs and in its `X-Request-Id` answer header. */
    requestId: string;
  };
};

/** For handlers behind requireUser: the user is known to be present. */
export type AuthedEnv = {
  Variables: AppEnv['Variables'] & { user: SessionUser; session: SessionInfo };
};
