import { sql } from 'drizzle-orm';
import type { Deps } from '../http/app-env.ts';
import { defineJob } from './queue.ts';

/**
 * Hourly, on the embedded database only: PGlite runs no autovacuum, so without this its planner
 * statistics stay as they were when the tables were small, and it picks plans that read every
 * row (message search over 100,000 messages took 480 ms instead of 10 ms). PostgreSQL's own
 * autovacuum keeps them there.
 */
export const refreshPlannerStatisticsJob = defineJob<Deps, object>({
  name: 'refresh-planner-statistics',
  title: 'Refresh the embedded database’s query statistics',
  cron: '17 * * * *',
  retry: { limit: 1, delaySeconds: 600 },
  run: async (_data, deps) => {
    if (deps.database.driver !== 'pglite') return;
    await deps.database.db.execute(sql`analyze`);
  },
});
