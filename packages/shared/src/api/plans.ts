import { z } from 'zod';
import { fileLimitCeilings } from '../limits.ts';
import { providerIds } from '../providers.ts';
import { schedulePlanBounds } from './schedules.ts';

/** The plan named Free is every profile's fallback (spec §3, §9): it cannot be deleted or renamed. */
export const FREE_PLAN_NAME = 'Free';

/** A pricing plan as admins see and edit it (`/rest/v1/admin/pricing-plans`). */
export const adminPricingPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The displayed monthly price in cents; 0 is free of charge. */
  price_cents: z.number().int(),
  /** Prompts per UTC day; null is unlimited. */
  daily_prompt_limit: z.number().int().nullable(),
  /** Empty means every provider. */
  allowed_providers: z.array(z.string()),
  /** Empty means every model of the allowed providers. */
  allowed_models: z.array(z.string()),
  stripe_price_id: z.string().nullable(),
  /** Largest single upload in bytes; null is the instance default (`fileLimitDefaults`). */
  max_file_bytes: z.number().int().nullable(),
  /** Total bytes a user may store; null is the instance default (`fileLimitDefaults`). */
  storage_quota_bytes: z.number().int().nullable(),
  /** Schedules a user may keep; null is the instance default (`scheduleLimits.perUser`). */
  max_schedules: z.number().int().nullable(),
  /**
   * The shortest interval a schedule may run at, in minutes; null is the instance default
   * (`scheduleLimits.minIntervalMinutes`).
   */
  min_schedule_interval_minutes: z.number().int().nullable(),
  /** How many profiles are on the plan (Free also counts profiles without a plan). */
  user_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminPricingPlan = z.infer<typeof adminPricingPlanSchema>;

export const adminPricingPlansResponseSchema = z.object({
  plans: z.array(adminPricingPlanSchema),
});
export type AdminPricingPlansResponse = z.infer<typeof adminPricingPlansResponseSchema>;

const planName = z
  .string()
  .trim()
  .min(1, 'Give the plan a name')
  .max(60, 'A plan name is at most 60 characters');

const modelId = z.string().trim().min(1).max(200);

const planFields = {
  name: planName,
  price_cents: z
    .number()
    .int('The price is a whole number of cents')
    .min(0, 'The price cannot be negative')
    .max(100_000_000, 'The price is at most 1,000,000.00'),
  daily_prompt_limit: z
    .number()
    .int('The daily limit is a whole number')
    .min(0, 'The daily limit cannot be negative')
    .max(1_000_000, 'The daily limit is at most 1,000,000')
    .nullable(),
  allowed_providers: z
    .array(z.enum(providerIds, { error: 'Unknown provider' }))
    .max(providerIds.length)
    .transform((list) => [...new Set(list)]),
  allowed_models: z
    .array(modelId)
    .max(200, 'At most 200 models')
    .transform((list) => [...new Set(list)]),
  stripe_price_id: z
    .string()
    .trim()
    .max(200)
    .transform((v) => (v === '' ? null : v))
    .nullable(),
  max_file_bytes: z
    .number()
    .int('The file size limit is a whole number of bytes')
    .min(1, 'The file size limit must be above 0')
    .max(fileLimitCeilings.maxFileBytes, 'The file size limit is at most 5 GB')
    .nullable(),
  storage_quota_bytes: z
    .number()
    .int('The storage limit is a whole number of bytes')
    .min(1, 'The storage limit must be above 0')
    .max(fileLimitCeilings.storageQuotaBytes, 'The storage limit is at most 1024 GB')
    .nullable(),
  max_schedules: z
    .number()
    .int('The schedule limit is a whole number')
    .min(schedulePlanBounds.maxSchedules.min, 'The schedule limit cannot be negative')
    .max(
      schedulePlanBounds.maxSchedules.max,
      `The schedule limit is at most ${schedulePlanBounds.maxSchedules.max.toLocaleString('en')}`,
    )
    .nullable(),
  min_schedule_interval_minutes: z
    .number()
    .int('The shortest schedule interval is a whole number of minutes')
    .min(
      schedulePlanBounds.minIntervalMinutes.min,
      'The shortest schedule interval is at least 1 minute',
    )
    .max(
      schedulePlanBounds.minIntervalMinutes.max,
      `The shortest schedule interval is at most ${schedulePlanBounds.minIntervalMinutes.max.toLocaleString('en')} minutes (a week)`,
    )
    .nullable(),
};

export const createPricingPlanSchema = z
  .object({
    name: planFields.name,
    price_cents: planFields.price_cents.default(0),
    daily_prompt_limit: planFields.daily_prompt_limit.default(null),
    allowed_providers: planFields.allowed_providers.default([]),
    allowed_models: planFields.allowed_models.default([]),
    stripe_price_id: planFields.stripe_price_id.default(null),
    max_file_bytes: planFields.max_file_bytes.default(null),
    storage_quota_bytes: planFields.storage_quota_bytes.default(null),
    max_schedules: planFields.max_schedules.default(null),
    min_schedule_interval_minutes: planFields.min_schedule_interval_minutes.default(null),
  })
  .strict();
export type CreatePricingPlan = z.output<typeof createPricingPlanSchema>;
export type CreatePricingPlanInput = z.input<typeof createPricingPlanSchema>;

export const updatePricingPlanSchema = z
  .object({
    name: planFields.name.optional(),
    price_cents: planFields.price_cents.optional(),
    daily_prompt_limit: planFields.daily_prompt_limit.optional(),
    allowed_providers: planFields.allowed_providers.optional(),
    allowed_models: planFields.allowed_models.optional(),
    stripe_price_id: planFields.stripe_price_id.optional(),
    max_file_bytes: planFields.max_file_bytes.optional(),
    storage_quota_bytes: planFields.storage_quota_bytes.optional(),
    max_schedules: planFields.max_schedules.optional(),
    min_schedule_interval_minutes: planFields.min_schedule_interval_minutes.optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdatePricingPlan = z.output<typeof updatePricingPlanSchema>;
export type UpdatePricingPlanInput = z.input<typeof updatePricingPlanSchema>;

export const deletePricingPlanResponseSchema = z.object({
  /** How many users were moved to the Free plan. */
  moved_to_free: z.number().int(),
});
export type DeletePricingPlanResponse = z.infer<typeof deletePricingPlanResponseSchema>;
