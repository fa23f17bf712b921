import type { Context } from 'hono';
import { isAdmin, isSuperAdmin } from '../../../db/repositories/roles.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isAdminRoute, isSuperAdminRoute } from './rpc.routes.ts';

/**
 * Reads `user_uuid` without letting a bad body become an error: spec §6 says any failure is false.
 * A caller may ask about itself; only admins may ask about others.
 */
const answer = async (c: Context<AppEnv>, check: typeof isAdmin): Promise<boolean> => {
  const caller = c.var.user;
  if (!caller) return false;
  let target: unknown;
  try {
    target = ((await c.req.raw.clone().json()) as { user_uuid?: unknown } | null)?.user_uuid;
  } catch {
    return false;
  }
  const db = c.var.deps.database.db;
  if (target !== caller.id && !(await isAdmin(db, caller.id))) return false;
  return check(db, target);
};

// Plain routes, documented through the registry: a validator would turn a bad body into a 400.
export const rpcRouter = createRouter();
rpcRouter.openAPIRegistry.registerPath(isAdminRoute);
rpcRouter.openAPIRegistry.registerPath(isSuperAdminRoute);
rpcRouter
  .post(isAdminRoute.path, async (c) => c.json(await answer(c, isAdmin)))
  .post(isSuperAdminRoute.path, async (c) => c.json(await answer(c, isSuperAdmin)));
