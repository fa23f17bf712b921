import type { AppEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { recordClientError } from '../../../db/repositories/client-errors.ts';
import { reportClientErrorRoute } from './client-errors.routes.ts';

export const clientErrorsRouter = createRouter<AppEnv>().openapi(
  reportClientErrorRoute,
  async (c) =>
    c.json(
      await recordClientError(c.var.deps.database.db, {
        userId: c.var.user?.id ?? null,
        userAgent: c.req.header('user-agent'),
        report: c.req.valid('json'),
      }),
      201,
    ),
);
