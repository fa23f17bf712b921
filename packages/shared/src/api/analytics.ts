import { z } from 'zod';

export const ANALYTICS_MAX_DAYS = 366;

export const analyticsQuerySchema = z.object({
  days: z.coerce
    .number()
    .int('`days` is a whole number')
    .min(1, '`days` is at least 1')
    .max(ANALYTICS_MAX_DAYS, `\`days\` is at most ${ANALYTICS_MAX_DAYS}`)
    .default(30),
});

export const analyticsDaySchema = z.object({
  /** UTC date, YYYY-MM-DD; every day of the range is present, quiet days with zeros. */
  date: z.string(),
  /** Distinct users who sent a message or made an AI call that day. */
  active_users: z.number().int(),
  /** Messages written that day (user and assistant). */
  messages: z.number().int(),
  /** AI calls (chat and proxy) that day. */
  calls: z.number().int(),
  /** AI calls that failed that day. */
  errors: z.number().int(),
  /** errors / calls, 0 when there were no calls. */
  error_rate: z.number(),
  /** Assistant replies stored with status error that day. */
  failed_replies: z.number().int(),
  /** Error reports sent by browsers that day. */
  client_errors: z.number().int(),
});
export type AnalyticsDay = z.infer<typeof analyticsDaySchema>;

export const providerShareSchema = z.object({
  provider: z.string(),
  /** AI calls (chat and proxy) to this provider in the range. */
  calls: z.number().int(),
  share: z.number(),
});
export type ProviderShare = z.infer<typeof providerShareSchema>;

export const analyticsResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(analyticsDaySchema),
  providers: z.array(providerShareSchema),
  totals: z.object({
    active_users: z.number().int(),
    messages: z.number().int(),
    calls: z.number().int(),
    errors: z.number().int(),
  }),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponseSchema>;
