import { z } from 'zod';
import { roles } from '../roles.ts';
import { pageQueryFields } from './paging.ts';

export const userStatisticsRowSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  full_name: z.string().nullable(),
  public_name: z.string().nullable(),
  role: z.enum(roles),
  plan_id: z.string().nullable(),
  /** The plan the user is on; a profile without a plan is on Free (spec §3). */
  plan_name: z.string(),
  suspended_at: z.string().nullable(),
  registration_date: z.string(),
  /** Last message sent or AI call made (`activityDefinitions.active`); null if never. */
  last_active: z.string().nullable(),
  conversation_count: z.number().int(),
  /** Messages the user sent (`activityDefinitions.message`). */
  message_count: z.number().int(),
});
export type UserStatisticsRow = z.infer<typeof userStatisticsRowSchema>;

/** `staff` lists admins and super admins together (the super-admin page). */
export const adminUsersRoleFilter = [...roles, 'staff'] as const;

export const adminUsersQuerySchema = z.object({
  ...pageQueryFields,
  search: z.string().trim().max(200).optional(),
  role: z.enum(adminUsersRoleFilter).optional(),
});

export const planChoiceSchema = z.object({ id: z.string(), name: z.string() });
export type PlanChoice = z.infer<typeof planChoiceSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(userStatisticsRowSchema),
  total: z.number().int(),
  /** Every plan a user can be moved to, by name. */
  plans: z.array(planChoiceSchema),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

/** One change at a time: a plan, a role, or suspension (true) / reactivation (false). */
export const patchAdminUserSchema = z
  .object({
    plan_id: z.uuid('plan_id must be the id of a pricing plan').optional(),
    role: z.enum(roles).optional(),
    suspended: z.boolean().optional(),
  })
  .strict()
  .refine(
    (b) => [b.plan_id, b.role, b.suspended].filter((v) => v !== undefined).length === 1,
    'Send exactly one of plan_id, role or suspended',
  );
export type PatchAdminUser = z.infer<typeof patchAdminUserSchema>;

/** `/admin` overview: today's numbers (UTC day). */
export const adminOverviewSchema = z.object({
  users_total: z.number().int(),
  active_today: z.number().int(),
  messages_today: z.number().int(),
  errors_today: z.number().int(),
  /** client_errors reported today and failed replies today (`activityDefinitions.failedReply`). */
  errors_breakdown: z.object({
    client_errors: z.number().int(),
    failed_replies: z.number().int(),
  }),
  pending_access_requests: z.number().int(),
  signup_mode: z.enum(['open', 'request']),
  /**
   * How knowledge bases are searched on this server: `hybrid` with the database's vector
   * extension, `full_text` alone without it (a PostgreSQL lacking pgvector).
   */
  knowledge_search: z.enum(['hybrid', 'full_text']),
});
export type AdminOverview = z.infer<typeof adminOverviewSchema>;
