import { z } from 'zod';

export const signupModes = ['open', 'request'] as const;
export type SignupMode = (typeof signupModes)[number];

/** Instance-wide settings super admins edit (`app_settings`). */
export const appSettingsSchema = z.object({
  /** `open`: anyone may sign up; `request`: only with an invitation from an approved request. */
  signup_mode: z.enum(signupModes),
  /** Shown on the sign-in and request-access pages, e.g. who may ask and whom to contact. */
  signup_notice: z.string(),
  updated_at: z.string().nullable(),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

export const SIGNUP_NOTICE_MAX = 500;

export const putAppSettingsSchema = z
  .object({
    signup_mode: z.enum(signupModes, { error: 'signup_mode is open or request' }).optional(),
    signup_notice: z
      .string()
      .trim()
      .max(SIGNUP_NOTICE_MAX, `The notice is at most ${SIGNUP_NOTICE_MAX} characters`)
      .optional(),
  })
  .strict()
  .refine((b) => b.signup_mode !== undefined || b.signup_notice !== undefined, {
    error: 'Send signup_mode, signup_notice or both',
  });
export type PutAppSettings = z.input<typeof putAppSettingsSchema>;

/** Public: what the auth page needs to offer sign-up or "Request access". */
export const signupModeResponseSchema = z.object({
  signup_mode: z.enum(signupModes),
  signup_notice: z.string(),
});
export type SignupModeResponse = z.infer<typeof signupModeResponseSchema>;
