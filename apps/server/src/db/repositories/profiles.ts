import { and, eq, ne, sql } from 'drizzle-orm';
import type { PricingPlan, Profile, ProfileUpdate } from '@chorus/shared/api/profile';
import type { Db } from '../client.ts';
import { profiles } from '../schema/index.ts';
import { findFreePlan, findPlanById, type PlanRow } from './plans.ts';

const toPlan = (p: PlanRow): PricingPlan => ({
  id: p.id,
  name: p.name,
  price_cents: p.price_cents,
  daily_prompt_limit: p.daily_prompt_limit,
  allowed_providers: p.allowed_providers,
  allowed_models: p.allowed_models,
  created_at: p.created_at.toISOString(),
});

export class PublicNameTakenError extends Error {
  override name = 'PublicNameTakenError';
}

/** The signed-in user's own profile; every query is keyed by the user's id. */
export class ProfilesRepository {
  constructor(
    private readonly db: Db,
    private readonly userId: string,
  ) {}

  /** Creates the profile row when the sign-up hook could not (idempotent). */
  async ensure(seed: { email: string; name: string | null }): Promise<void> {
    const free = await findFreePlan(this.db);
    await this.db
      .insert(profiles)
      .values({
        id: this.userId,
        username: seed.email,
        full_name: seed.name?.trim() || null,
        plan_id: free.id,
      })
      .onConflictDoNothing();
  }

  /** The profile with its plan embedded; the Free plan when the plan cannot be read (spec §4). */
  async get(): Promise<Profile | null> {
    const [row] = await this.db
      .select()
      .from(profiles)
      .where(eq(profiles.id, this.userId))
      .limit(1);
    if (!row) return null;
    let plan: PlanRow | undefined;
    try {
      plan = row.plan_id ? await findPlanById(this.db, row.plan_id) : undefined;
    } catch {
      plan = undefined;
    }
    plan ??= await findFreePlan(this.db);
    return {
      id: row.id,
      username: row.username,
      public_name: row.public_name,
      full_name: row.full_name,
      plan_id: row.plan_id,
      role: row.role,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      plan: toPlan(plan),
    };
  }

  async isPublicNameAvailable(name: string): Promise<boolean> {
    const [taken] = await this.db
      .select({ id: profiles.id })
      .from(profiles)
      .where(
        and(sql`lower(${profiles.public_name}) = lower(${name})`, ne(profiles.id, this.userId)),
      )
      .limit(1);
    return !taken;
  }

  /** Returns null when the user has no profile; throws PublicNameTakenError on a clash. */
  async update(patch: ProfileUpdate): Promise<Profile | null> {
    if (patch.public_name && !(await this.isPublicNameAvailable(patch.public_name))) {
      throw new PublicNameTakenError();
    }
    try {
      const updated = await this.db
        .update(profiles)
        .set({
          ...(patch.full_name !== undefined && { full_name: patch.full_name }),
          ...(patch.public_name !== undefined && { public_name: patch.public_name }),
        })
        .where(eq(profiles.id, this.userId))
        .returning({ id: profiles.id });
      if (updated.length === 0) return null;
    } catch (error) {
      // Two users racing for one name: the unique index has the last word.
      if (isUniqueViolation(error)) throw new PublicNameTakenError();
      throw error;
    }
    return this.get();
  }
}

/** Whether `error`, or any error it wraps (drivers nest them), carries the Postgres `code`. */
const hasPostgresCode = (error: unknown, code: string): boolean => {
  let e: unknown = error;
  for (let depth = 0; e && depth < 5; depth++) {
    if ((e as { code?: unknown }).code === code) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};

export const isUniqueViolation = (error: unknown): boolean => hasPostgresCode(error, '23505');

export const isForeignKeyViolation = (error: unknown): boolean => hasPostgresCode(error, '23503');
