import { eq } from 'drizzle-orm';
import { profiles } from '../../../db/schema/index.ts';
import type { TestApp } from '../../../test/harness.ts';

export type TestUser = Awaited<ReturnType<TestApp['user']>>;

/**
 * The three callers of the admin tests, signed in: `root` (the first account, so super admin),
 * `admin` (promoted to admin) and `plain`. Addresses are `<prefix>-root@example.com` and so on.
 */
export const signUpAdminTrio = async (t: TestApp, prefix: string) => {
  const root = await t.user(`${prefix}-root@example.com`);
  const admin = await t.user(`${prefix}-admin@example.com`);
  await t.db.update(profiles).set({ role: 'admin' }).where(eq(profiles.id, admin.id));
  const plain = await t.user(`${prefix}-plain@example.com`);
  return { root, admin, plain };
};
