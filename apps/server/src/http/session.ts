import { createMiddleware } from 'hono/factory';
import { messages } from '@chorus/shared/messages';
import { isSuspended } from '../db/repositories/admin-users.ts';
import { findRole } from '../db/repositories/roles.ts';
import type { AppEnv, AuthedEnv } from './app-env.ts';
import { ApiError } from './errors.ts';

/** Reads the session cookie once per request. A suspended account counts as signed out. */
export const loadSession = createMiddleware<AppEnv>(async (c, next) => {
  const found = await c.var.deps.auth.api.getSession({ headers: c.req.raw.headers });
  const session =
    found && (await isSuspended(c.var.deps.database.db, found.user.id)) ? null : found;
  c.set('user', session?.user ?? null);
  c.set('session', session?.session ?? null);
  await next();
});

export const requireUser = createMiddleware<AuthedEnv>(async (c, next) => {
  if (!c.var.user) throw new ApiError(401, 'auth:required', messages.auth.required);
  await next();
});

/** Every admin route starts here; the web's guards only hide UI (ARCHITECTURE §3). */
export const requireRole = (needed: 'admin' | 'super_admin') =>
  createMiddleware<AuthedEnv>(async (c, next) => {
    if (!c.var.user) throw new ApiError(401, 'auth:required', messages.auth.required);
    const role = await findRole(c.var.deps.database.db, c.var.user.id);
    const allowed =
      needed === 'admin' ? role === 'admin' || role === 'super_admin' : role === 'super_admin';
    if (!allowed) {
      throw new ApiError(403, 'auth:forbidden', 'This area is for administrators only.');
    }
    await next();
  });
