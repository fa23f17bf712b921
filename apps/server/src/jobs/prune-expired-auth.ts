import type { Deps } from '../http/app-env.ts';
import { pruneExpiredAuthRows } from '../db/repositories/auth-housekeeping.ts';
import { defineJob } from './queue.ts';

/** Daily: sessions and reset or invitation tokens past their expiry are deleted. */
export const pruneExpiredAuthJob = defineJob<Deps, object>({
  name: 'prune-expired-auth',
  title: 'Delete expired sessions and tokens',
  cron: '40 3 * * *',
  retry: { limit: 2, delaySeconds: 300 },
  run: async (_data, deps) => {
    const pruned = await pruneExpiredAuthRows(deps.database.db);
    if (pruned.sessions + pruned.verifications > 0)
      deps.log.info(pruned, 'expired auth rows deleted');
  },
});
