import { countPendingAccessRequests } from '../../../../db/repositories/access-requests.ts';
import { readSignupMode } from '../../../../db/repositories/app-settings.ts';
import { readOverviewCounts } from '../../../../db/repositories/overview.ts';
import { hasVectorStore } from '../../../../db/vector-store.ts';
import type { AuthedEnv } from '../../../../http/app-env.ts';
import { createRouter } from '../../../../http/openapi.ts';
import { getOverviewRoute } from './overview.routes.ts';

/** Today, UTC: [00:00, tomorrow 00:00). */
const todayUtc = (now = new Date()) => {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { start, end: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
};

export const adminOverviewRouter = createRouter<AuthedEnv>().openapi(
  getOverviewRoute,
  async (c) => {
    const db = c.var.deps.database.db;
    const [counts, pending, mode, vectors] = await Promise.all([
      readOverviewCounts(db, todayUtc()),
      countPendingAccessRequests(db),
      readSignupMode(db),
      hasVectorStore(db),
    ]);
    return c.json(
      {
        users_total: counts.users_total,
        active_today: counts.active_today,
        messages_today: counts.messages_today,
        errors_today: counts.client_errors + counts.failed_replies,
        errors_breakdown: {
          client_errors: counts.client_errors,
          failed_replies: counts.failed_replies,
        },
        pending_access_requests: pending,
        signup_mode: mode,
        knowledge_search: vectors ? ('hybrid' as const) : ('full_text' as const),
      },
      200,
    );
  },
);
