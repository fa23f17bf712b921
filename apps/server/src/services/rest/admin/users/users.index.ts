import {
  AdminUsersRepository,
  type PeopleRefusal,
} from '../../../../db/repositories/admin-users.ts';
import {
  findUserStatistics,
  listPlanChoices,
  listUserStatistics,
} from '../../../../db/repositories/user-statistics.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { ApiError } from '../../../../http/errors.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { accessChanged } from '../../../../http/session.ts';
import { listUsersRoute, patchUserRoute } from './users.routes.ts';

const refusals: Record<PeopleRefusal, ApiError> = {
  user_not_found: new ApiError(404, 'users:not_found'),
  plan_not_found: new ApiError(404, 'plans:not_found'),
  self_role: new ApiError(403, 'users:self_role'),
  self_suspend: new ApiError(403, 'users:self_suspend'),
  super_admin_only: new ApiError(403, 'users:super_admin_only'),
  admin_suspend_needs_super_admin: new ApiError(403, 'users:suspend_admin'),
  last_super_admin: new ApiError(409, 'users:last_super_admin'),
};

export const adminUsersRouter = createRouter<AuthedEnv>()
  .openapi(listUsersRoute, async (c) => {
    const db = c.var.deps.database.db;
    const [page, plans] = await Promise.all([
      listUserStatistics(db, c.req.valid('query')),
      listPlanChoices(db),
    ]);
    return c.json({ ...page, plans }, 200);
  })
  .openapi(patchUserRoute, async (c) => {
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    const db = c.var.deps.database.db;
    const repo = new AdminUsersRepository(db, { id: c.var.user.id, role: c.var.role ?? 'user' });
    const result =
      body.plan_id !== undefined
        ? await repo.setPlan(id, body.plan_id)
        : body.role !== undefined
          ? await repo.setRole(id, body.role)
          : await repo.setSuspended(id, body.suspended!);
    if (!result.ok) throw refusals[result.refusal];
    if (body.role !== undefined || body.suspended !== undefined)
      await accessChanged(c.var.deps, id);
    // Open pages of a suspended user hear it at once, on whichever instance holds their socket.
    if (body.suspended) await c.var.deps.realtime.endSessions(id);
    const row = await findUserStatistics(db, id);
    if (!row) throw refusals.user_not_found;
    c.var.deps.log.info({ adminId: c.var.user.id, userId: id, change: body }, 'user changed');
    return c.json(row, 200);
  });
