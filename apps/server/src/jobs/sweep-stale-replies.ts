import type { Deps } from '../http/app-env.ts';
import { pruneGoneInstances } from '../db/repositories/instances.ts';
import { interruptAbandonedReplies } from '../db/repositories/messages.ts';
import { defineJob } from './queue.ts';

/**
 * Every minute: replies left `streaming` by an instance that died (its lease ran out) keep their
 * text and become `interrupted`, without waiting for anything to restart; instances gone for a
 * day are forgotten.
 */
export const sweepStaleRepliesJob = defineJob<Deps, object>({
  name: 'sweep-stale-replies',
  title: 'Recover replies of stopped instances',
  cron: '* * * * *',
  expireInSeconds: 60,
  run: async (_data, deps) => {
    const interrupted = await interruptAbandonedReplies(deps.database.db);
    if (interrupted > 0)
      deps.log.warn({ interrupted }, 'replies of a stopped instance are kept as interrupted');
    await pruneGoneInstances(deps.database.db);
  },
});
