import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { contactFormLimit, sendEmailLimit, unsubscribeLimit } from '@chorus/shared/email';
import type { RateLimitWindow } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import type { Database } from '../db/client.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientIp } from '../http/client-ip.ts';

const windows = {
  'send-email': { window: sendEmailLimit, operation: 'Sending e-mail' },
  contact: { window: contactFormLimit, operation: 'The contact form' },
  unsubscribe: { window: unsubscribeLimit, operation: 'Unsubscribing' },
} satisfies Record<string, { window: RateLimitWindow; operation: string }>;
type EmailLimit = keyof typeof windows;

/** One set of limiters per database, sharing the `rate_limits` table of http/rate-limit.ts. */
const limiters = new WeakMap<Database, Map<EmailLimit, RateLimiterPostgres>>();

const limiterFor = (database: Database, name: EmailLimit) => {
  let byName = limiters.get(database);
  if (!byName) {
    byName = new Map();
    limiters.set(database, byName);
  }
  let limiter = byName.get(name);
  if (!limiter) {
    const w = windows[name].window;
    limiter = new RateLimiterPostgres({
      storeClient: database.sqlClient,
      storeType: database.driver === 'postgres' ? 'pool' : 'client',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: `email_${name}`,
      points: w.points,
      duration: w.windowSeconds,
      blockDuration: w.blockSeconds,
      clearExpiredByTimeout: false,
    });
    byName.set(name, limiter);
  }
  return limiter;
};

/** A 429 with Retry-After once `name`'s budget for the key is spent (state in the database). */
const limitBy = <E extends AppEnv>(
  name: EmailLimit,
  keyOf: (c: Context<E>) => string,
): MiddlewareHandler<E> => {
  return async (c, next) => {
    const { database, log } = c.var.deps;
    try {
      await limiterFor(database, name).consume(keyOf(c));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        c.header('Retry-After', String(seconds));
        return c.json(
          {
            error: messages.rateLimit.operation(windows[name].operation, seconds),
            code: 'rate_limit:exceeded',
          },
          429,
        );
      }
      // A limiter that cannot reach its store must not lock everyone out.
      log.error({ err: rejection, limit: name }, 'rate limiter store failed; request allowed');
    }
    await next();
  };
};

export const limitEmailByUser = (name: EmailLimit) =>
  limitBy<AppEnv>(name, (c) => c.var.user?.id ?? clientIp(c, c.var.deps.config.trustProxy));

export const limitEmailByIp = (name: EmailLimit) =>
  limitBy<AppEnv>(name, (c) => clientIp(c, c.var.deps.config.trustProxy));
