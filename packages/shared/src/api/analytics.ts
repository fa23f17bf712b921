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

/**
 * The back office's three words, defined once. The server counts them in one place
 * (apps/server/src/db/repositories/activity.ts) for the overview, analytics, usage statistics
 * and the users table; the pages say what they mean with these sentences.
 */
export const activityDefinitions = {
  active: 'Active: sent a message or made an AI call (chat, proxy, agents and the rest).',
  message: 'Message: one a person sent; the AI’s replies are not counted.',
  failedReply: 'Failed reply: an AI reply that ended in an error.',
} as const;

/** Active users, messages and failed replies over a range, by the definitions above. */
export const activityTotalsSchema = z.object({
  active_users: z.number().int(),
  messages: z.number().int(),
  failed_replies: z.number().int(),
});
export type ActivityTotals = z.infer<typeof activityTotalsSchema>;

export const analyticsDaySchema = z.object({
  /** UTC date, YYYY-MM-DD; every day of the range is present, quiet days with zeros. */
  date: z.string(),
  /** Distinct users who sent a message or made an AI call that day. */
  active_users: z.number().int(),
  /** Messages people sent that day (not the replies). */
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
  totals: activityTotalsSchema.extend({
    calls: z.number().int(),
    errors: z.number().int(),
  }),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponseSchema>;
