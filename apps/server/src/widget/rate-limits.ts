import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { widgetLimits } from '@chorus/shared/api/widgets';
import type { Deps } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';

/**
 * The widget's abuse limits (issue 21), in the same `rate_limits` table as the app's own, so
 * every server instance counts alike: messages per visitor per hour (the owner's number),
 * per widget per minute and per client address per minute (over all widgets), and session
 * starts per address, which each may write a visitor row.
 */
type WidgetLimiters = {
  perVisitor: Map<number, RateLimiterPostgres>;
  perWidget: RateLimiterPostgres;
  perIp: RateLimiterPostgres;
  sessionsPerIp: RateLimiterPostgres;
};

/** Session starts per client address per minute: a page load is one. */
const SESSION_STARTS_PER_IP_MINUTE = 60;

const byDeps = new WeakMap<Deps, WidgetLimiters>();

const build = (deps: Deps, keyPrefix: string, points: number, duration: number) =>
  new RateLimiterPostgres({
    storeClient: deps.database.sqlClient,
    storeType: deps.database.driver === 'postgres' ? 'pool' : 'client',
    tableName: 'rate_limits',
    tableCreated: true,
    keyPrefix,
    points,
    duration,
    clearExpiredByTimeout: false,
  });

const limitersOf = (deps: Deps): WidgetLimiters => {
  let found = byDeps.get(deps);
  if (!found) {
    found = {
      perVisitor: new Map(),
      perWidget: build(deps, 'widget_messages', widgetLimits.widgetMessagesPerMinute, 60),
      perIp: build(deps, 'widget_ip_messages', widgetLimits.ipMessagesPerMinute, 60),
      sessionsPerIp: build(deps, 'widget_ip_sessions', SESSION_STARTS_PER_IP_MINUTE, 60),
    };
    byDeps.set(deps, found);
  }
  return found;
};

/**
 * One limiter per points value, all under one key prefix: the count is the visitor's whatever
 * the number, so an owner who lowers it limits visitors at once.
 */
const visitorLimiter = (deps: Deps, perHour: number) => {
  const limiters = limitersOf(deps).perVisitor;
  let limiter = limiters.get(perHour);
  if (!limiter) {
    limiter = build(deps, 'widget_visitor_messages', perHour, 60 * 60);
    limiters.set(perHour, limiter);
  }
  return limiter;
};

const refusal = (rejection: RateLimiterRes) => {
  const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  return new ApiError(429, 'widgets:rate_limited', undefined, { 'Retry-After': String(seconds) });
};

const spend = async (deps: Deps, limiter: RateLimiterPostgres, key: string) => {
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw refusal(rejection);
    // A limiter that cannot reach its store must not lock every visitor out.
    deps.log.error({ err: rejection, key: limiter.keyPrefix }, 'widget rate limiter failed');
  }
};

/** One message: the visitor's hour, the widget's minute and the address's minute, in order. */
export const spendMessage = async (
  deps: Deps,
  req: { widgetId: string; visitorId: string; perHour: number; ip: string },
): Promise<void> => {
  const limiters = limitersOf(deps);
  await spend(deps, visitorLimiter(deps, req.perHour), req.visitorId);
  await spend(deps, limiters.perWidget, req.widgetId);
  await spend(deps, limiters.perIp, req.ip);
};

export const spendSessionStart = (deps: Deps, ip: string): Promise<void> =>
  spend(deps, limitersOf(deps).sessionsPerIp, ip);
