import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import {
  clientErrorReportLimit,
  rateLimitWindows,
  serverDataPointsDefault,
  type RateLimitCategory,
  type RateLimitWindow,
} from '@chorus/shared/limits';
import { messages } from '@chorus/shared/messages';
import type { SqlClient } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import type { AppEnv, AuthedEnv } from './app-env.ts';
import { clientIp } from './client-ip.ts';

/** Spec §9's categories, plus the server's own budget for client error reports. */
export type ServerRateLimitCategory = RateLimitCategory | 'client_error_report';

export type RateLimiters = Record<ServerRateLimitCategory, RateLimiterPostgres>;

const operationNames: Record<ServerRateLimitCategory, string> = {
  auth: 'Authentication',
  token_refresh: 'Token refresh',
  conversation_create: 'Conversation creation',
  data: 'Data request',
  client_error_report: 'Error report',
};

/**
 * Limits per category with spec §9's windows. State lives in the `rate_limits` table so every
 * server instance enforces the same budget. The `data` window allows `dataPoints` per user
 * (RATE_LIMIT_DATA_POINTS, ADR 009) rather than the browser's own 50.
 */
export const createRateLimiters = (
  client: SqlClient,
  storeType: 'pool' | 'client',
  opts: { dataPoints?: number } = {},
): RateLimiters => {
  const build = (keyPrefix: ServerRateLimitCategory, w: RateLimitWindow) =>
    new RateLimiterPostgres({
      storeClient: client,
      storeType,
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix,
      points: w.points,
      duration: w.windowSeconds,
      blockDuration: w.blockSeconds,
      clearExpiredByTimeout: false,
    });
  return {
    auth: build('auth', rateLimitWindows.auth),
    token_refresh: build('token_refresh', rateLimitWindows.token_refresh),
    conversation_create: build('conversation_create', rateLimitWindows.conversation_create),
    data: build('data', {
      ...rateLimitWindows.data,
      points: opts.dataPoints ?? serverDataPointsDefault,
    }),
    client_error_report: build('client_error_report', clientErrorReportLimit),
  };
};

/** Consumes one point of `category` for the key; answers 429 with Retry-After once spent. */
export const rateLimit = <E extends AppEnv = AppEnv>(
  limiter: RateLimiterPostgres,
  category: ServerRateLimitCategory,
  keyOf: (c: Context<E>) => string,
  log: Logger,
): MiddlewareHandler<E> => {
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
export const limitByUser = (category: ServerRateLimitCategory) =>
  createMiddleware<AuthedEnv>((c, next) =>
    rateLimit<AuthedEnv>(
      c.var.deps.limiters[category],
      category,
      () => c.var.user.id,
      c.var.deps.log,
    )(c, next),
  );

/**
 * The `category` window keyed by the signed-in user, or by the client address for a guest.
 * Runs after loadSession. User ids and addresses get distinct prefixes so they never collide.
 */
export const limitByUserOrIp = (category: ServerRateLimitCategory) =>
  createMiddleware<AppEnv>((c, next) =>
    rateLimit<AppEnv>(
      c.var.deps.limiters[category],
      category,
      () =>
        c.var.user ? `user:${c.var.user.id}` : `ip:${clientIp(c, c.var.deps.config.trustProxy)}`,
      c.var.deps.log,
    )(c, next),
  );

export const rateLimitConversationCreate = limitByUser('conversation_create');

/** Every /rest/v1 and /functions/v1 call (ADR 009). */
export const rateLimitData = limitByUserOrIp('data');

export const rateLimitClientErrorReports = limitByUserOrIp('client_error_report');
