import { analytics } from '../../../../db/repositories/usage.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { utcDate } from '../../../../quota/quota.ts';
import { analyticsRoute } from './analytics.routes.ts';

export const adminAnalyticsRouter = createRouter<AuthedEnv>().openapi(analyticsRoute, async (c) => {
  const { days } = c.req.valid('query');
  const now = new Date();
  const start = new Date(now);
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return c.json(await analytics(c.var.deps.database.db, utcDate(start), utcDate(now)), 200);
});
