import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { contactFormLimit, sendEmailLimit, unsubscribeLimit } from '@chorus/shared/email';
import {
  accessRequestLimit,
  clientErrorReportLimit,
  rateLimitWindows,
  serverDataPointsDefault,
  sharedChatViewLimit,
  type RateLimitCategory,
  type RateLimitWindow,
} from '@chorus/shared/limits';
import type { SqlClient } from '../db/client.ts';

/** Spec §9's categories, plus the server's own budgets for public and mail-sending endpoints. */
export type ServerRateLimitCategory =
  | RateLimitCategory
  | 'client_error_report'
  | 'email_send'
  | 'email_contact'
  | 'email_unsubscribe'
  | 'access_request'
  | 'shared_chat_view';

export type RateLimiters = Record<ServerRateLimitCategory, RateLimiterPostgres>;

export const operationNames: Record<ServerRateLimitCategory, string> = {
  auth: 'Authentication',
  token_refresh: 'Token refresh',
  conversation_create: 'Conversation creation',
  data: 'Data request',
  client_error_report: 'Error report',
  email_send: 'Sending e-mail',
  email_contact: 'The contact form',
  email_unsubscribe: 'Unsubscribing',
  access_request: 'Access request',
  shared_chat_view: 'Opening shared chats',
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
    email_send: build('email_send', sendEmailLimit),
    email_contact: build('email_contact', contactFormLimit),
    email_unsubscribe: build('email_unsubscribe', unsubscribeLimit),
    access_request: build('access_request', accessRequestLimit),
    shared_chat_view: build('shared_chat_view', sharedChatViewLimit),
  };
};
