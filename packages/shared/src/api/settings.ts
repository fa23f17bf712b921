import { z } from 'zod';

export const signupModes = ['open', 'request'] as const;
export type SignupMode = (typeof signupModes)[number];

/** Instance-wide settings super admins edit (`app_settings`). */
export const appSettingsSchema = z.object({
  /** `open`: anyone may sign up; `request`: only with an invitation from an approved request. */
  signup_mode: z.enum(signupModes),
  /** Shown on the sign-in and request-access pages, e.g. who may ask and whom to contact. */
  signup_notice: z.string(),
  /**
   * Private hosts outbound requests (web fetch, HTTP tools, MCP) may reach anyway, such as an
   * intranet MCP server: host names, addresses or CIDR ranges. Empty, so off, by default.
   */
  outbound_allow_hosts: z.array(z.string()),
  updated_at: z.string().nullable(),
});
export type AppSettings = z.infer<typeof appSettingsSchema>;

export const SIGNUP_NOTICE_MAX = 500;

/** Entries of the outbound allow-list, and the length of one (a host name is at most 253). */
export const OUTBOUND_ALLOW_HOSTS_MAX = 100;
export const OUTBOUND_ALLOW_ENTRY_MAX = 253;

export const putAppSettingsSchema = z
  .object({
    signup_mode: z.enum(signupModes, { error: 'signup_mode is open or request' }).optional(),
    signup_notice: z
      .string()
      .trim()
      .max(SIGNUP_NOTICE_MAX, `The notice is at most ${SIGNUP_NOTICE_MAX} characters`)
      .optional(),
    /** Each entry is checked on the server (host name, address or CIDR). */
    outbound_allow_hosts: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'An allowed host cannot be empty')
          .max(
            OUTBOUND_ALLOW_ENTRY_MAX,
            `An allowed host is at most ${OUTBOUND_ALLOW_ENTRY_MAX} characters`,
          ),
      )
      .max(OUTBOUND_ALLOW_HOSTS_MAX, `At most ${OUTBOUND_ALLOW_HOSTS_MAX} allowed hosts`)
      .optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'Send signup_mode, signup_notice, outbound_allow_hosts or several of them',
  });
export type PutAppSettings = z.input<typeof putAppSettingsSchema>;

/** Public: what the auth page needs to offer sign-up or "Request access". */
export const signupModeResponseSchema = z.object({
  signup_mode: z.enum(signupModes),
  signup_notice: z.string(),
});
export type SignupModeResponse = z.infer<typeof signupModeResponseSchema>;
