import { z } from 'zod';
import { pageQueryFields } from './paging.ts';

export const accessRequestStatuses = ['pending', 'approved', 'declined', 'used'] as const;
export type AccessRequestStatus = (typeof accessRequestStatuses)[number];

/** `/request-access`: who is asking and why. */
export const createAccessRequestSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address')),
  reason: z
    .string()
    .trim()
    .min(1, 'Say in a few words why you need access')
    .max(1000, 'Keep the reason under 1000 characters'),
});
export type CreateAccessRequest = z.input<typeof createAccessRequestSchema>;

/** The same answer whether or not the address is known (it reveals nothing). */
export const accessRequestReceivedSchema = z.object({ message: z.string() });

export const accessRequestSchema = z.object({
  id: z.string(),
  email: z.string(),
  reason: z.string(),
  status: z.enum(accessRequestStatuses),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by_email: z.string().nullable(),
  invite_expires_at: z.string().nullable(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestsQuerySchema = z.object({
  status: z.enum(accessRequestStatuses).optional(),
  ...pageQueryFields,
});

export const accessRequestsResponseSchema = z.object({
  requests: z.array(accessRequestSchema),
  total: z.number().int(),
});
export type AccessRequestsResponse = z.infer<typeof accessRequestsResponseSchema>;

/** Days an invitation link stays valid. */
export const INVITATION_VALID_DAYS = 7;
