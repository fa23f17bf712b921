import { z } from 'zod';
import { providerIdSchema } from './keys.ts';

/** An aggregate is shown only when at least this many uses stand behind it. */
export const trendMinCount = 5;

export const trendEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  count: z.number().int(),
});
export type TrendEntry = z.infer<typeof trendEntrySchema>;

const windowsSchema = z.object({
  days7: z.array(trendEntrySchema),
  days30: z.array(trendEntrySchema),
});

/**
 * `GET /rest/v1/trends` (public): this instance's real aggregates, never a person's data. Public
 * prompts by copies and cookbook scenarios by runs (of copies), over 7 and 30 days, at most 10
 * each, counts under `trendMinCount` left out.
 */
export const trendsSchema = z.object({
  prompts: windowsSchema,
  scenarios: windowsSchema,
  min_count: z.number().int(),
  generated_at: z.string(),
});
export type Trends = z.infer<typeof trendsSchema>;

/** `POST /functions/v1/trends-ask`: a question about the trends; the answer streams as text. */
export const trendsAskSchema = z
  .object({
    question: z
      .string({ error: 'Ask a question' })
      .trim()
      .min(1, 'Ask a question')
      .max(2_000, 'A question is at most 2,000 characters'),
    provider: providerIdSchema.optional(),
    model: z.string().max(200).optional(),
  })
  .strict();
export type TrendsAsk = z.input<typeof trendsAskSchema>;

/** Offered on /trends-proxy. */
export const trendPresetQuestions = [
  'What is rising fastest?',
  'Which scenarios should a new team try first?',
  'What do these trends say about how people use AI models?',
  'Which public prompts are worth copying this week?',
] as const;
