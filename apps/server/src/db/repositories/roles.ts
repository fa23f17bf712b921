import { eq } from 'drizzle-orm';
import { isAdminRole, type Role } from '@chorus/shared/roles';
import type { Db } from '../client.ts';
import { appBootstrap, profiles } from '../schema/index.ts';

/**
 * A user's role and whether the account is suspended, in one read: the session middleware's
 * only profile query. Null when the user has no profile (not suspended, no role).
 */
export const findAccess = async (
  db: Db,
  userId: string,
): Promise<{ role: Role; suspended: boolean } | null> => {
  const [row] = await db
    .select({ role: profiles.role, suspended_at: profiles.suspended_at })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  return row ? { role: row.role, suspended: row.suspended_at !== null } : null;
};

export const findRole = async (db: Db, userId: string): Promise<Role | null> =>
  (await findAccess(db, userId))?.role ?? null;

/** Spec §6: any failure (unknown id, malformed id, database error) answers false. */
export const isAdmin = async (db: Db, userId: unknown): Promise<boolean> => {
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 100) return false;
  try {
    return isAdminRole(await findRole(db, userId));
  } catch {
    return false;
  }
};

export const isSuperAdmin = async (db: Db, userId: unknown): Promise<boolean> => {
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > 100) return false;
  try {
    return (await findRole(db, userId)) === 'super_admin';
  } catch {
    return false;
  }
};

/**
 * The first account on an empty database becomes super_admin. The singleton row's primary key
 * decides the race: of two concurrent first sign-ups exactly one insert succeeds.
 */
export const claimFirstUser = async (db: Db, userId: string): Promise<boolean> => {
  const claimed = await db
    .insert(appBootstrap)
    .values({ id: 1, first_user_id: userId })
    .onConflictDoNothing()
    .returning({ id: appBootstrap.id });
  if (claimed.length === 0) return false;
  await db.update(profiles).set({ role: 'super_admin' }).where(eq(profiles.id, userId));
  return true;
};

/** Whether the first account (the super admin) exists yet. */
export const hasFirstAccount = async (db: Db): Promise<boolean> =>
  (await db.select({ id: appBootstrap.id }).from(appBootstrap).where(eq(appBootstrap.id, 1)))
    .length > 0;
