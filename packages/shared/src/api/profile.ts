import { z } from 'zod';
import { roles } from '../roles.ts';

export const pricingPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  price_cents: z.number().int(),
  daily_prompt_limit: z.number().int().nullable(),
  allowed_providers: z.array(z.string()),
  allowed_models: z.array(z.string()),
  created_at: z.string(),
});
export type PricingPlan = z.infer<typeof pricingPlanSchema>;

export const profileSchema = z.object({
  id: z.string(),
  username: z.string(),
  public_name: z.string().nullable(),
  full_name: z.string().nullable(),
  plan_id: z.string().nullable(),
  role: z.enum(roles),
  created_at: z.string(),
  updated_at: z.string(),
  plan: pricingPlanSchema,
});
export type Profile = z.infer<typeof profileSchema>;

/** `GET /rest/v1/profile/public-name-available?name=`: checked as the user types. */
export const publicNameAvailabilityQuerySchema = z.object({
  name: z.string().trim().min(1, 'Give a name to check').max(60),
});
export const publicNameAvailabilitySchema = z.object({
  name: z.string(),
  available: z.boolean(),
  /** Why the name cannot be used, when it cannot. */
  reason: z.string().nullable(),
});
export type PublicNameAvailability = z.infer<typeof publicNameAvailabilitySchema>;

export const publicNamePattern = /^[\p{L}\p{N}_.-]+$/u;
export const publicNamePatternMessage =
  'Public name may contain letters, numbers, dots, dashes and underscores only';

const trimmedName = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable();

export const profileUpdateSchema = z
  .object({
    full_name: trimmedName(120).optional(),
    public_name: trimmedName(60)
      .refine((v) => v === null || publicNamePattern.test(v), {
        message: publicNamePatternMessage,
      })
      .optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
