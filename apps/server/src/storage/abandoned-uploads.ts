import { takeAbandonedUploads } from '../db/repositories/files.ts';
import type { Deps } from '../http/app-env.ts';

/** An upload still running after this long was cut off by a stop or a crash. */
export const ABANDONED_UPLOAD_MS = 24 * 60 * 60 * 1000;

/**
 * At start: rows of uploads a crash cut off hold quota and may name a stored object (when the
 * crash came between the put and the final update). Both go; a failed object delete is logged
 * and left, since nothing points at it any more.
 */
export const sweepAbandonedUploads = async (
  deps: Pick<Deps, 'database' | 'storage' | 'log'>,
  now = new Date(),
): Promise<number> => {
  const rows = await takeAbandonedUploads(
    deps.database.db,
    new Date(now.getTime() - ABANDONED_UPLOAD_MS),
  );
  for (const row of rows) {
    await deps.storage
      .delete(row.storage_key)
      .catch((error: unknown) =>
        deps.log.warn({ err: error, fileId: row.id }, 'object of an abandoned upload kept'),
      );
  }
  if (rows.length > 0) deps.log.info({ count: rows.length }, 'abandoned uploads removed');
  return rows.length;
};
