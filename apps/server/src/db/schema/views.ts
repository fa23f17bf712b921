import { sql } from 'drizzle-orm';
import { pgView } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { profiles } from './accounts.ts';

/** Read by admins (spec §6). One row per user with what the back office lists. */
export const userStatistics = pgView('user_statistics').as((qb) =>
  qb
    .select({
      user_id: profiles.id,
      email: users.email,
      full_name: profiles.full_name,
      public_name: profiles.public_name,
      role: profiles.role,
      plan_id: profiles.plan_id,
      suspended_at: profiles.suspended_at,
      registration_date: sql<Date>`${users.createdAt}`.as('registration_date'),
      last_active:
        sql<Date | null>`(select max(s.updated_at) from sessions s where s.user_id = ${users.id})`.as(
          'last_active',
        ),
      conversation_count:
        sql<number>`(select count(*)::int from conversations c where c.user_id = ${users.id})`.as(
          'conversation_count',
        ),
      message_count:
        sql<number>`(select count(*)::int from messages m where m.user_id = ${users.id})`.as(
          'message_count',
        ),
    })
    .from(profiles)
    .innerJoin(users, sql`${users.id} = ${profiles.id}`),
);
