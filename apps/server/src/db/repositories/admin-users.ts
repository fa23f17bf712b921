import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Role } from '@chorus/shared/roles';
import type { Db, Tx } from '../client.ts';
import { pricingPlans, profiles, sessions } from '../schema/index.ts';
import { writeAuditLog } from './audit-logs.ts';

export type PeopleRefusal =
  | 'user_not_found'
  | 'plan_not_found'
  | 'self_role'
  | 'self_suspend'
  | 'super_admin_only'
  | 'admin_suspend_needs_super_admin'
  | 'last_super_admin';

export type PeopleResult = { ok: true } | { ok: false; refusal: PeopleRefusal };

type Target = { id: string; role: Role; plan_id: string | null; suspended_at: Date | null };

/**
 * The changes an admin makes to people: plan, role, suspension. The role rules are checked inside
 * the transaction with the rows locked, so two admins acting at once cannot leave the workspace
 * without an active super admin. Every change writes its audit row in the same transaction.
 */
export class AdminUsersRepository {
  constructor(
    private readonly db: Db,
    private readonly actor: { id: string; role: Role },
  ) {}

  private async inTx(
    userId: string,
    work: (tx: Tx, target: Target) => Promise<PeopleResult>,
  ): Promise<PeopleResult> {
    return this.db.transaction(async (tx) => {
      const [target] = await tx
        .select({
          id: profiles.id,
          role: profiles.role,
          plan_id: profiles.plan_id,
          suspended_at: profiles.suspended_at,
        })
        .from(profiles)
        .where(eq(profiles.id, userId))
        .for('update');
      if (!target) return { ok: false, refusal: 'user_not_found' } as const;
      return work(tx, target);
    });
  }

  /** Whether another active super admin remains besides `userId` (locks the super admins). */
  private async anotherActiveSuperAdmin(tx: Tx, userId: string): Promise<boolean> {
    const others = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(
        and(
          eq(profiles.role, 'super_admin'),
          isNull(profiles.suspended_at),
          ne(profiles.id, userId),
        ),
      )
      .for('update');
    return others.length > 0;
  }

  async setPlan(userId: string, planId: string): Promise<PeopleResult> {
    return this.inTx(userId, async (tx, target) => {
      const [plan] = await tx
        .select({ id: pricingPlans.id, name: pricingPlans.name })
        .from(pricingPlans)
        .where(eq(pricingPlans.id, planId));
      if (!plan) return { ok: false, refusal: 'plan_not_found' };
      if (target.plan_id === plan.id) return { ok: true };
      await tx
        .update(profiles)
        .set({ plan_id: plan.id, updated_at: new Date() })
        .where(eq(profiles.id, userId));
      await writeAuditLog(tx, this.actor.id, {
        action: 'change_plan',
        table_name: 'profiles',
        record_id: userId,
        details: { from_plan_id: target.plan_id, to_plan_id: plan.id, plan_name: plan.name },
      });
      return { ok: true };
    });
  }

  async setRole(userId: string, role: Role): Promise<PeopleResult> {
    if (userId === this.actor.id) return { ok: false, refusal: 'self_role' };
    return this.inTx(userId, async (tx, target) => {
      const touchesSuperAdmin = role === 'super_admin' || target.role === 'super_admin';
      if (touchesSuperAdmin && this.actor.role !== 'super_admin') {
        return { ok: false, refusal: 'super_admin_only' };
      }
      if (target.role === role) return { ok: true };
      if (target.role === 'super_admin' && !(await this.anotherActiveSuperAdmin(tx, userId))) {
        return { ok: false, refusal: 'last_super_admin' };
      }
      await tx
        .update(profiles)
        .set({ role, updated_at: new Date() })
        .where(eq(profiles.id, userId));
      await writeAuditLog(tx, this.actor.id, {
        action: 'change_role',
        table_name: 'profiles',
        record_id: userId,
        details: { from: target.role, to: role },
      });
      return { ok: true };
    });
  }

  /**
   * Suspension ends every session of the user at once (their cookie no longer finds a row);
   * reactivation lets them sign in again.
   */
  async setSuspended(userId: string, suspended: boolean): Promise<PeopleResult> {
    if (userId === this.actor.id) return { ok: false, refusal: 'self_suspend' };
    return this.inTx(userId, async (tx, target) => {
      if (target.role !== 'user' && this.actor.role !== 'super_admin') {
        return { ok: false, refusal: 'admin_suspend_needs_super_admin' };
      }
      if (suspended) {
        if (target.role === 'super_admin' && !(await this.anotherActiveSuperAdmin(tx, userId))) {
          return { ok: false, refusal: 'last_super_admin' };
        }
        // Sessions are cut even if already suspended: one may have slipped in before.
        await tx.delete(sessions).where(eq(sessions.userId, userId));
        if (target.suspended_at) return { ok: true };
      } else if (!target.suspended_at) {
        return { ok: true };
      }
      await tx
        .update(profiles)
        .set({ suspended_at: suspended ? new Date() : null, updated_at: new Date() })
        .where(eq(profiles.id, userId));
      await writeAuditLog(tx, this.actor.id, {
        action: suspended ? 'suspend_user' : 'reactivate_user',
        table_name: 'profiles',
        record_id: userId,
        details: { role: target.role },
      });
      return { ok: true };
    });
  }
}
