import { z } from 'zod';
import { roles } from '../roles.ts';

export const pricingPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  price_cents: z.number().int(),
  daily_prompt_limit: z.number().int().nullable(),
  allowed_providers: z.array(z.string()),
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
      .refine((v) => v === null || /^[\p{L}\p{N}_.-]+$/u.test(v), {
        message: 'Public name may contain letters, numbers, dots, dashes and underscores only',
      })
      .optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;
