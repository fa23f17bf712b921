import type { Deps } from '../http/app-env.ts';
import { sweepAbandonedUploads } from '../storage/abandoned-uploads.ts';
import { defineJob } from './queue.ts';

/** Hourly: uploads a crash or a stop cut off give back their quota and their stored bytes. */
export const sweepAbandonedUploadsJob = defineJob<Deps, object>({
  name: 'sweep-abandoned-uploads',
  title: 'Remove abandoned uploads',
  cron: '17 * * * *',
  retry: { limit: 2, delaySeconds: 60 },
  run: async (_data, deps) => {
    await sweepAbandonedUploads(deps);
  },
});
