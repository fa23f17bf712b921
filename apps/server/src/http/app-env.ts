import type { Config } from '../config.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import type { Database } from '../db/client.ts';
import type { Mailer } from '../email/transport.ts';
import type { Logger } from '../logger.ts';
import type { Auth } from '../services/auth/auth.ts';
import type { Realtime } from '../services/realtime/hub.ts';
import type { RateLimiters } from './rate-limit.ts';

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
};

export type SessionUser = Auth['$Infer']['Session']['user'];
export type SessionInfo = Auth['$Infer']['Session']['session'];

export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser | null;
    session: SessionInfo | null;
  };
};

/** For handlers behind requireUser: the user is known to be present. */
export type AuthedEnv = {
  Variables: AppEnv['Variables'] & { user: SessionUser; session: SessionInfo };
};
