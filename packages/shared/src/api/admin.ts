import { z } from 'zod';
import { roles } from '../roles.ts';

export const userStatisticsRowSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  public_name: z.string().nullable(),
  role: z.enum(roles),
  plan_id: z.string().nullable(),
  suspended_at: z.string().nullable(),
  registration_date: z.string(),
  last_active: z.string().nullable(),
  conversation_count: z.number().int(),
  message_count: z.number().int(),
});
export type UserStatisticsRow = z.infer<typeof userStatisticsRowSchema>;

export const adminUsersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  search: z.string().trim().max(200).optional(),
});

export const adminUsersResponseSchema = z.object({
  users: z.array(userStatisticsRowSchema),
  total: z.number().int(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;
