import {
  and,
  asc,
  desc,
  eq,
  getViewSelectedFields,
  ilike,
  inArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { PlanChoice, UserStatisticsRow } from '@chorus/shared/api/admin';
import type { Role } from '@chorus/shared/roles';
import type { Db } from '../client.ts';
import { containsPattern } from '../like.ts';
import { pricingPlans, userStatistics } from '../schema/index.ts';
import { lastActiveOf, messageCountOf } from './activity.ts';
import { FREE_PLAN_NAME } from './plans.ts';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

type StatisticsRow = typeof userStatistics.$inferSelect;

// The view's message count and last activity count otherwise (every message, a session's last
// refresh); the back office shows one definition of each (activity.ts).
const withPlanName = {
  ...getViewSelectedFields(userStatistics),
  last_active: lastActiveOf(userStatistics.user_id),
  message_count: messageCountOf(userStatistics.user_id),
  plan_name: pricingPlans.name,
};

const toRow = ({
  plan_name,
  ...r
}: Omit<StatisticsRow, 'last_active'> & {
  last_active: Date | string | null;
  plan_name: string | null;
}): UserStatisticsRow => ({
  ...r,
  plan_name: plan_name ?? FREE_PLAN_NAME,
  suspended_at: iso(r.suspended_at),
  registration_date: iso(r.registration_date)!,
  last_active: iso(r.last_active),
  conversation_count: Number(r.conversation_count),
  message_count: Number(r.message_count),
});

const roleFilter = (role: Role | 'staff' | undefined): SQL | undefined => {
  if (!role) return undefined;
  if (role === 'staff') return inArray(userStatistics.role, ['admin', 'super_admin']);
  return eq(userStatistics.role, role);
};

/** Admin-only reading across users; callers must have passed requireRole('admin'). */
export const listUserStatistics = async (
  db: Db,
  opts: { limit: number; offset: number; search?: string; role?: Role | 'staff' },
): Promise<{ users: UserStatisticsRow[]; total: number }> => {
  const pattern = opts.search ? containsPattern(opts.search) : null;
  const where = and(
    pattern
      ? or(
          ilike(userStatistics.email, pattern),
          ilike(userStatistics.full_name, pattern),
          ilike(userStatistics.public_name, pattern),
        )
      : undefined,
    roleFilter(opts.role),
  );
  const [rows, [count]] = await Promise.all([
    db
      .select(withPlanName)
      .from(userStatistics)
      .leftJoin(pricingPlans, eq(pricingPlans.id, userStatistics.plan_id))
      .where(where)
      .orderBy(desc(userStatistics.registration_date), asc(userStatistics.user_id))
      .limit(opts.limit)
      .offset(opts.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(userStatistics)
      .where(where),
  ]);
  return {
    total: Number(count?.total ?? 0),
    users: rows.map(toRow),
  };
};

/** One user's row, after an admin changed it. */
export const findUserStatistics = async (
  db: Db,
  userId: string,
): Promise<UserStatisticsRow | undefined> => {
  const [row] = await db
    .select(withPlanName)
    .from(userStatistics)
    .leftJoin(pricingPlans, eq(pricingPlans.id, userStatistics.plan_id))
    .where(eq(userStatistics.user_id, userId))
    .limit(1);
  return row ? toRow(row) : undefined;
};

/** The plans a user can be moved to, Free first then by price and name. */
export const listPlanChoices = async (db: Db): Promise<PlanChoice[]> =>
  db
    .select({ id: pricingPlans.id, name: pricingPlans.name })
    .from(pricingPlans)
    .orderBy(
      sql`(${pricingPlans.name} = ${FREE_PLAN_NAME}) desc`,
      asc(pricingPlans.price_cents),
      asc(pricingPlans.name),
    );
