import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { accessRequestLimit } from '@chorus/shared/limits';
import { peopleMessages } from '@chorus/shared/messages';
import type { AppEnv, Deps } from '../../../http/app-env.ts';
import { clientIp } from '../../../http/client-ip.ts';

const limiters = new WeakMap<Deps, RateLimiterPostgres>();

/** The same Postgres store as the other limits, so every instance shares one budget per IP. */
const limiterFor = (deps: Deps) => {
  let limiter = limiters.get(deps);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: deps.database.sqlClient,
      storeType: deps.database.driver === 'postgres' ? 'pool' : 'client',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: 'access_request',
      points: accessRequestLimit.points,
      duration: accessRequestLimit.windowSeconds,
      blockDuration: accessRequestLimit.blockSeconds,
      clearExpiredByTimeout: false,
    });
    limiters.set(deps, limiter);
  }
  return limiter;
};

export const limitAccessRequestsByIp = createMiddleware<AppEnv>(
  async (c: Context<AppEnv>, next) => {
    const { deps } = c.var;
    try {
      await limiterFor(deps).consume(clientIp(c, deps.config.trustProxy));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        c.header('Retry-After', String(seconds));
        return c.json(
          {
            error: peopleMessages.accessRequestsRateLimited(seconds),
            code: 'rate_limit:exceeded',
          },
          429,
        );
      }
      deps.log.error({ err: rejection }, 'access request limiter failed; request allowed');
    }
    await next();
  },
);
