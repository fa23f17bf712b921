import { z } from 'zod';
import { contactFieldLimits } from '../email.ts';
import { pageQueryFields } from './paging.ts';

/**
 * `POST /functions/v1/send-email` (spec §7): `{to, subject, html, text, from, replyTo}`, or a
 * template by `type` — the spec's `password_reset` with `resetLink` and `userName`, and the run
 * notifications. Every field is optional here so that the handler answers with the spec's own
 * messages ('Missing required email fields: …', 'Invalid email format: …').
 */
export const sendEmailTypes = [
  'password_reset',
  'test_run',
  'run_started',
  'run_completed',
] as const;
export type SendEmailType = (typeof sendEmailTypes)[number];

const optionalText = (max: number) => z.string().max(max).optional();

export const sendEmailRequestSchema = z.object({
  to: z.union([z.string().max(320), z.array(z.string().max(320)).max(50)]).optional(),
  subject: optionalText(300),
  html: optionalText(200_000),
  text: optionalText(100_000),
  from: optionalText(320),
  replyTo: optionalText(320),
  type: z.enum(sendEmailTypes).optional(),
  resetLink: optionalText(2000),
  userName: optionalText(200),
  runName: optionalText(300),
  responseText: optionalText(50_000),
  provider: optionalText(100),
  model: optionalText(200),
});
export type SendEmailRequest = z.infer<typeof sendEmailRequestSchema>;

export const emailOutboxStatuses = ['pending', 'sent', 'failed'] as const;
export type EmailOutboxStatus = (typeof emailOutboxStatuses)[number];

export const sendEmailResponseSchema = z.object({
  success: z.literal(true),
  id: z.string(),
  /** `sent` once the SMTP server took it; `pending` while it waits (no SMTP, or a retry is due). */
  status: z.enum(emailOutboxStatuses),
});
export type SendEmailResponse = z.infer<typeof sendEmailResponseSchema>;

/** `POST /functions/v1/contact`: the help page's contact form (guests too). */
export const contactRequestSchema = z.object({
  name: z.string().trim().min(1, 'Please enter your name.').max(contactFieldLimits.name),
  email: z
    .string()
    .trim()
    .max(contactFieldLimits.email)
    .pipe(z.email('Please enter a valid e-mail address.')),
  message: z.string().trim().min(1, 'Please enter a message.').max(contactFieldLimits.message),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;

export const contactResponseSchema = z.object({ success: z.literal(true) });

/** `POST /rest/v1/unsubscribe`: public and idempotent; the same answer for any address. */
export const unsubscribeRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .max(320)
    .pipe(z.email('The unsubscribe link has no valid e-mail address.')),
  /** From the link in the mail: proves the mail was sent to this address. */
  token: z
    .string({
      error: 'The unsubscribe link is incomplete. Use the link from the e-mail as it was sent.',
    })
    .min(1, 'The unsubscribe link is incomplete. Use the link from the e-mail as it was sent.')
    .max(200),
});
export const unsubscribeResponseSchema = z.object({
  email: z.string(),
  unsubscribed: z.literal(true),
});
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponseSchema>;

/** `GET /rest/v1/admin/email-outbox`: newest first. */
export const emailOutboxQuerySchema = z.object({
  status: z.enum(emailOutboxStatuses).optional(),
  ...pageQueryFields,
});
export type EmailOutboxQuery = z.infer<typeof emailOutboxQuerySchema>;

export const emailOutboxSummarySchema = z.object({
  id: z.string(),
  to: z.array(z.string()),
  from: z.string(),
  reply_to: z.string().nullable(),
  subject: z.string(),
  template: z.string().nullable(),
  status: z.enum(emailOutboxStatuses),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  /**
   * The mail holds a user's own content (a run's prompt and reply, names they chose), which this
   * reader, an admin who is not a super admin, gets as `[hidden: user content]` in the subject
   * and body.
   */
  content_hidden: z.boolean(),
});
export type EmailOutboxSummary = z.infer<typeof emailOutboxSummarySchema>;

export const emailOutboxListSchema = z.object({
  emails: z.array(emailOutboxSummarySchema),
  total: z.number().int(),
});
export type EmailOutboxList = z.infer<typeof emailOutboxListSchema>;

export const emailOutboxItemSchema = emailOutboxSummarySchema.extend({
  html: z.string(),
  text: z.string().nullable(),
});
export type EmailOutboxItem = z.infer<typeof emailOutboxItemSchema>;

export const emailOutboxIdParamSchema = z.object({ id: z.uuid('Not an outbox id.') });
