import type { Context, MiddlewareHandler } from 'hono';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { messageFor } from '@chorus/shared/error-catalogue';
import type { AppEnv, AuthedEnv } from './app-env.ts';
import { clientIp } from './client-ip.ts';
import { errorBody } from './errors.ts';
import { operationNames, type ServerRateLimitCategory } from './rate-limiters.ts';

/**
 * Consumes one point of `category`'s window (the limiter in `deps`) for the key; answers 429
 * with Retry-After once spent.
 */
export const rateLimit = <E extends AppEnv = AppEnv>(
  category: ServerRateLimitCategory,
  keyOf: (c: Context<E>) => string,
): MiddlewareHandler<E> => {
  return async (c, next) => {
    const { limiters, log } = c.var.deps;
    try {
      await limiters[category].consume(keyOf(c));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        c.header('Retry-After', String(seconds));
        return c.json(
          errorBody(
            messageFor('rate_limit:exceeded', { operation: operationNames[category], seconds }),
            'rate_limit:exceeded',
          ),
          429,
        );
      }
      // A limiter that cannot reach its store must not lock everyone out.
      log.error({ err: rejection, category }, 'rate limiter store failed; request allowed');
    }
    await next();
  };
};

/** Spec §9 limits are per user: keyed by the signed-in user (behind requireUser). */
export const rateLimitConversationCreate = rateLimit<AuthedEnv>(
  'conversation_create',
  (c) => c.var.user.id,
);

/**
 * The `category` window keyed by the signed-in user, or by the client address for a guest.
 * Runs after loadSession. User ids and addresses get distinct prefixes so they never collide.
 */
export const rateLimitByUserOrIp = (category: ServerRateLimitCategory) =>
  rateLimit(category, (c) =>
    c.var.user ? `user:${c.var.user.id}` : `ip:${clientIp(c, c.var.deps.config.trustProxy)}`,
  );

/** Every /rest/v1 and /functions/v1 call (ADR 009). */
export const rateLimitData = rateLimitByUserOrIp('data');

export const rateLimitClientErrorReports = rateLimitByUserOrIp('client_error_report');

/** Public endpoints that anyone may call (contact form, unsubscribe, request access). */
export const rateLimitByIp = (category: ServerRateLimitCategory) =>
  rateLimit(category, (c) => `ip:${clientIp(c, c.var.deps.config.trustProxy)}`);
