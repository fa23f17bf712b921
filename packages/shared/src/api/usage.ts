import { z } from 'zod';
import { activityTotalsSchema } from './analytics.ts';
import { isoDateSchema } from './dates.ts';

/** Longest date range the usage statistics answer for, in days (inclusive). */
export const USAGE_MAX_RANGE_DAYS = 366;

/** `?from=&to=` (UTC dates, inclusive); both default to the last 30 days ending today. */
export const usageStatisticsQuerySchema = z
  .object({
    from: isoDateSchema.optional(),
    to: isoDateSchema.optional(),
    format: z.enum(['json', 'csv']).default('json'),
    /** Which table the CSV holds: prompts per user per day, or tokens per provider and model. */
    table: z.enum(['prompt_usage', 'tokens', 'sources']).default('prompt_usage'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: '`from` must be on or before `to`',
    path: ['from'],
  });
export type UsageStatisticsQuery = z.input<typeof usageStatisticsQuerySchema>;

export const userDailyUsageSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  /** UTC date, YYYY-MM-DD. */
  date: z.string(),
  count: z.number().int(),
});
export type UserDailyUsage = z.infer<typeof userDailyUsageSchema>;

export const modelTokenUsageSchema = z.object({
  provider: z.string(),
  model: z.string().nullable(),
  calls: z.number().int(),
  errors: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** Estimated from the price table; null when none of these calls had a known price. */
  cost_usd: z.number().nullable(),
});
export type ModelTokenUsage = z.infer<typeof modelTokenUsageSchema>;

/** What a model call was made for: every call through the server's model-call seam says. */
export const usageSources = [
  'chat',
  'proxy',
  'scenario',
  'agent',
  'workflow',
  'schedule',
  'test',
  'widget',
  'knowledge',
  'trends',
] as const;
export type UsageSource = (typeof usageSources)[number];

export const sourceUsageSchema = z.object({
  source: z.enum(usageSources),
  calls: z.number().int(),
  errors: z.number().int(),
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  /** Estimated from the price table; null when no call of this source had a known price. */
  cost_usd: z.number().nullable(),
});
export type SourceUsage = z.infer<typeof sourceUsageSchema>;

export const usageStatisticsResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Active users, messages and failed replies in the range, as the overview and analytics count them. */
  activity: activityTotalsSchema,
  prompt_usage: z.array(userDailyUsageSchema),
  tokens: z.array(modelTokenUsageSchema),
  /** The same calls by what they were for: chat, proxy, scenario, agent, … */
  sources: z.array(sourceUsageSchema),
});
export type UsageStatisticsResponse = z.infer<typeof usageStatisticsResponseSchema>;

/** The signed-in user's count for today against their plan (`GET /rest/v1/profile/usage`). */
export const profileUsageSchema = z.object({
  /** UTC date the count is for. */
  date: z.string(),
  count: z.number().int(),
  /** null is unlimited. */
  limit: z.number().int().nullable(),
  plan_name: z.string(),
  /** When the count starts again from zero: next 00:00 UTC. */
  resets_at: z.string(),
});
export type ProfileUsage = z.infer<typeof profileUsageSchema>;
