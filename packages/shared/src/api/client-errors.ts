import { z } from 'zod';

export const clientErrorKinds = ['render', 'async', 'request', 'other'] as const;
export type ClientErrorKind = (typeof clientErrorKinds)[number];

/** `POST /rest/v1/client-errors`: what a browser reports about an error it saw. */
export const clientErrorReportSchema = z.object({
  kind: z.enum(clientErrorKinds),
  message: z.string().trim().min(1).max(2000),
  stack: z.string().max(8000).optional(),
  url: z.string().max(2000).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;

export const clientErrorReceiptSchema = z.object({ id: z.string() });

/** `GET /rest/v1/admin/client-errors`: newest first. */
export const clientErrorRowSchema = z.object({
  id: z.string(),
  user_id: z.string().nullable(),
  kind: z.enum(clientErrorKinds),
  message: z.string(),
  stack: z.string().nullable(),
  url: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type ClientErrorRow = z.infer<typeof clientErrorRowSchema>;

export const clientErrorListSchema = z.object({
  errors: z.array(clientErrorRowSchema),
  total: z.number().int(),
});
