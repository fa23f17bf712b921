import { asc, eq, sql } from 'drizzle-orm';
import type {
  AdminPricingPlan,
  CreatePricingPlan,
  UpdatePricingPlan,
} from '@chorus/shared/api/plans';
import type { Db } from '../client.ts';
import { pricingPlans, profiles } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';
import { FREE_PLAN_NAME, findFreePlan, findPlanById, type PlanRow } from './plans.ts';
import { isUniqueViolation } from './profiles.ts';

export class PlanNameTakenError extends Error {
  override name = 'PlanNameTakenError';
}
export class FreePlanProtectedError extends Error {
  override name = 'FreePlanProtectedError';
  constructor(readonly change: 'delete' | 'rename') {
    super(`The Free plan cannot be ${change === 'delete' ? 'deleted' : 'renamed'}`);
  }
}

/** The plan a user's quota and allowed providers come from: theirs, or Free (spec §3, §4). */
export const findPlanForUser = async (db: Db, userId: string): Promise<PlanRow> => {
  const [row] = await db
    .select({ plan: pricingPlans })
    .from(profiles)
    .innerJoin(pricingPlans, eq(pricingPlans.id, profiles.plan_id))
    .where(eq(profiles.id, userId))
    .limit(1);
  return row?.plan ?? findFreePlan(db);
};

/** Plans a user may buy through Stripe Checkout. */
export const listPurchasablePlans = (db: Db) =>
  db
    .select()
    .from(pricingPlans)
    .where(sql`${pricingPlans.stripe_price_id} is not null`)
    .orderBy(asc(pricingPlans.price_cents), asc(pricingPlans.name));

const toAdminPlan = (p: PlanRow, userCount: number): AdminPricingPlan => ({
  id: p.id,
  name: p.name,
  price_cents: p.price_cents,
  daily_prompt_limit: p.daily_prompt_limit,
  allowed_providers: p.allowed_providers,
  allowed_models: p.allowed_models,
  stripe_price_id: p.stripe_price_id,
  max_file_bytes: p.max_file_bytes,
  storage_quota_bytes: p.storage_quota_bytes,
  max_schedules: p.max_schedules,
  min_schedule_interval_minutes: p.min_schedule_interval_minutes,
  user_count: userCount,
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});

const asDb = (tx: unknown) => tx as Db;

/** Admin changes to pricing plans; each writes its audit row in the same transaction. */
export class AdminPlansRepository {
  constructor(
    private readonly db: Db,
    private readonly adminId: string,
  ) {}

  async list(): Promise<AdminPricingPlan[]> {
    const free = await findFreePlan(this.db);
    const [plans, counts] = await Promise.all([
      this.db
        .select()
        .from(pricingPlans)
        .orderBy(asc(pricingPlans.price_cents), asc(pricingPlans.name)),
      this.db
        .select({
          plan_id: sql<string>`coalesce(${profiles.plan_id}, ${free.id})`,
          n: sql<number>`count(*)::int`,
        })
        .from(profiles)
        .groupBy(sql`1`),
    ]);
    const byPlan = new Map(counts.map((c) => [String(c.plan_id), Number(c.n)]));
    // Free first: it is the fallback every other plan is compared with.
    return plans
      .sort((a, b) => Number(b.id === free.id) - Number(a.id === free.id))
      .map((p) => toAdminPlan(p, byPlan.get(p.id) ?? 0));
  }

  async get(id: string): Promise<AdminPricingPlan | undefined> {
    return (await this.list()).find((p) => p.id === id);
  }

  async create(input: CreatePricingPlan): Promise<AdminPricingPlan> {
    try {
      const created = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(pricingPlans)
          .values({
            name: input.name,
            price_cents: input.price_cents,
            daily_prompt_limit: input.daily_prompt_limit,
            allowed_providers: input.allowed_providers,
            allowed_models: input.allowed_models,
            stripe_price_id: input.stripe_price_id,
            max_file_bytes: input.max_file_bytes,
            storage_quota_bytes: input.storage_quota_bytes,
            max_schedules: input.max_schedules,
            min_schedule_interval_minutes: input.min_schedule_interval_minutes,
          })
          .returning();
        await writeAuditLog(asDb(tx), this.adminId, {
          action: 'create_pricing_plan',
          table_name: 'pricing_plans',
          record_id: row!.id,
          details: { ...input },
        });
        return row!;
      });
      return toAdminPlan(created, 0);
    } catch (error) {
      if (isUniqueViolation(error)) throw new PlanNameTakenError();
      throw error;
    }
  }

  /** Returns undefined when there is no such plan. */
  async update(id: string, patch: UpdatePricingPlan): Promise<AdminPricingPlan | undefined> {
    const before = await findPlanById(this.db, id).catch(() => undefined);
    if (!before) return undefined;
    if (
      before.name === FREE_PLAN_NAME &&
      patch.name !== undefined &&
      patch.name !== FREE_PLAN_NAME
    ) {
      throw new FreePlanProtectedError('rename');
    }
    const changes = Object.fromEntries(
      Object.entries(patch).filter(([, v]) => v !== undefined),
    ) as Partial<PlanRow>;
    try {
      await this.db.transaction(async (tx) => {
        await tx
          .update(pricingPlans)
          .set({ ...changes, updated_at: new Date() })
          .where(eq(pricingPlans.id, id));
        const previous = Object.fromEntries(
          Object.keys(changes).map((k) => [k, before[k as keyof PlanRow]]),
        );
        await writeAuditLog(asDb(tx), this.adminId, {
          action: 'update_pricing_plan',
          table_name: 'pricing_plans',
          record_id: id,
          details: { name: before.name, changes, previous },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new PlanNameTakenError();
      throw error;
    }
    return this.get(id);
  }

  /** Moves the plan's users to Free, then deletes it. Undefined when there is no such plan. */
  async remove(id: string): Promise<{ moved_to_free: number } | undefined> {
    const plan = await findPlanById(this.db, id).catch(() => undefined);
    if (!plan) return undefined;
    if (plan.name === FREE_PLAN_NAME) throw new FreePlanProtectedError('delete');
    const free = await findFreePlan(this.db);
    return this.db.transaction(async (tx) => {
      const moved = await tx
        .update(profiles)
        .set({ plan_id: free.id })
        .where(eq(profiles.plan_id, id))
        .returning({ id: profiles.id });
      await tx.delete(pricingPlans).where(eq(pricingPlans.id, id));
      await writeAuditLog(asDb(tx), this.adminId, {
        action: 'delete_pricing_plan',
        table_name: 'pricing_plans',
        record_id: id,
        details: { name: plan.name, moved_to_free: moved.length },
      });
      return { moved_to_free: moved.length };
    });
  }
}
