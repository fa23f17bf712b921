import { eq } from 'drizzle-orm';
import { isAdminRole, type Role } from '@chorus/shared/roles';
import type { Db } from '../client.ts';
import { appBootstrap, profiles } from '../schema.ts';

export const findRole = async (db: Db, userId: string): Promise<Role | null> => {
  const [row] = await db
    .select({ role: profiles.role })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  return row?.role ?? null;
};

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
