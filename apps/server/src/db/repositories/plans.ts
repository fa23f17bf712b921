import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { pricingPlans } from '../schema/index.ts';

export type PlanRow = typeof pricingPlans.$inferSelect;
export const FREE_PLAN_NAME = 'Free';

/** Pricing plans are shared reference data, not user-owned. */
export const findPlanById = async (db: Db, id: string): Promise<PlanRow | undefined> =>
  (await db.select().from(pricingPlans).where(eq(pricingPlans.id, id)).limit(1))[0];

export const findFreePlan = async (db: Db): Promise<PlanRow> => {
  const [free] = await db
    .select()
    .from(pricingPlans)
    .where(eq(pricingPlans.name, FREE_PLAN_NAME))
    .limit(1);
  if (free) return free;
  // The seed migration creates it; recreate it if an operator deleted the row by hand.
  const [created] = await db
    .insert(pricingPlans)
    .values({ name: FREE_PLAN_NAME })
    .onConflictDoUpdate({ target: pricingPlans.name, set: { name: FREE_PLAN_NAME } })
    .returning();
  return created!;
};
