import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimitWindows, type RateLimitCategory } from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import type { SqlClient } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { AuthedEnv } from './app-env.ts';

export type RateLimiters = Record<RateLimitCategory, RateLimiterPostgres>;

const operationNames: Record<RateLimitCategory, string> = {
  auth: 'Authentication',
  token_refresh: 'Token refresh',
  conversation_create: 'Conversation creation',
  data: 'Data request',
};

/**
 * Limits per category with spec §9's windows. State lives in the `rate_limits` table so every
 * server instance enforces the same budget.
 */
export const createRateLimiters = (
  client: SqlClient,
  storeType: 'pool' | 'client',
): RateLimiters => {
  const build = (category: RateLimitCategory) => {
    const w = rateLimitWindows[category];
    return new RateLimiterPostgres({
      storeClient: client,
      storeType,
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: category,
      points: w.points,
      duration: w.windowSeconds,
      blockDuration: w.blockSeconds,
      clearExpiredByTimeout: false,
    });
  };
  return {
    auth: build('auth'),
    token_refresh: build('token_refresh'),
    conversation_create: build('conversation_create'),
    data: build('data'),
  };
};

/** Consumes one point of `category` for the key; answers 429 with Retry-After once spent. */
export const rateLimit = (
  limiter: RateLimiterPostgres,
  category: RateLimitCategory,
  keyOf: (c: Parameters<MiddlewareHandler>[0]) => string,
  log: Logger,
): MiddlewareHandler => {
  return async (c, next) => {
    try {
      await limiter.consume(keyOf(c));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        c.header('Retry-After', String(seconds));
        return c.json(
          {
            error: messages.rateLimit.operation(operationNames[category], seconds),
            code: 'rate_limit:exceeded',
          },
          429,
        );
      }
      // A limiter that cannot reach its store must not lock everyone out.
      log.error({ err: rejection, category }, 'rate limiter store failed; request allowed');
    }
    await next();
  };
};

/** The `category` window keyed by the signed-in user (spec §9 limits are per user). */
export const limitByUser = (category: RateLimitCategory) =>
  createMiddleware<AuthedEnv>((c, next) =>
    rateLimit(
      c.var.deps.limiters[category],
      category,
      () => c.var.user.id,
      c.var.deps.log,
    )(c, next),
  );

export const rateLimitConversationCreate = limitByUser('conversation_create');
