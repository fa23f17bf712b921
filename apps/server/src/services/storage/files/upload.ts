import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { formatBytes } from '@chorus/shared/bytes';
import {
  acceptedFileTypes,
  fileLimitDefaults,
  type AcceptedFileType,
  type FilePurpose,
} from '@chorus/shared/limits';
import { messageFor } from '@chorus/shared/error-catalogue';
import { FilesRepository, type FileRow } from '../../../db/repositories/files.ts';
import { findPlanForUser } from '../../../db/repositories/pricing-plans.ts';
import type { PlanRow } from '../../../db/repositories/plans.ts';
import type { Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { objectKey, StorageUnavailableError, watchSource } from '../../../storage/driver.ts';
import {
  ContentMismatchError,
  EmptyUploadError,
  UploadMeter,
  UploadTooLargeError,
} from '../../../storage/upload-meter.ts';
import { storageUnavailable } from './file-errors.ts';

export type FileLimits = { maxFileBytes: number; storageQuotaBytes: number };

/** A plan's limits, its nulls read as the instance defaults. */
export const fileLimitsOf = (plan: PlanRow): FileLimits => ({
  maxFileBytes: plan.max_file_bytes ?? fileLimitDefaults.maxFileBytes,
  storageQuotaBytes: plan.storage_quota_bytes ?? fileLimitDefaults.storageQuotaBytes,
});

export type Upload = {
  userId: string;
  name: string;
  contentType: AcceptedFileType;
  purpose: FilePurpose;
  conversationId: string | null;
  /** Content-Length, when the client sent one. */
  declaredSize: number | undefined;
  body: Readable;
};

const tooLarge = (limits: FileLimits, plan: PlanRow) =>
  new ApiError(
    413,
    'storage:file_too_large',
    messageFor('storage:file_too_large', {
      limit: formatBytes(limits.maxFileBytes),
      plan: plan.name,
    }),
  );

const quotaExceeded = (used: number, limits: FileLimits, plan: PlanRow) =>
  new ApiError(
    413,
    'storage:quota_exceeded',
    messageFor('storage:quota_exceeded', {
      used: formatBytes(used),
      quota: formatBytes(limits.storageQuotaBytes),
      plan: plan.name,
    }),
  );

const emptyFile = () => new ApiError(400, 'storage:empty');

const conversationNotFound = () => new ApiError(404, 'conversations:not_found');

/**
 * Streams one upload into storage: reserve its bytes against the plan's quota (one row, under
 * the user's lock), pipe the body through the meter (count, hash, limit, type check) into the
 * driver, then record the real size and hash. Any failure removes the row; the driver leaves no
 * object behind a failed put.
 */
export const storeUpload = async (deps: Deps, upload: Upload): Promise<FileRow> => {
  const { db } = deps.database;
  const plan = await findPlanForUser(db, upload.userId);
  const limits = fileLimitsOf(plan);
  if (upload.declaredSize === 0) throw emptyFile();
  if (upload.declaredSize !== undefined && upload.declaredSize > limits.maxFileBytes) {
    throw tooLarge(limits, plan);
  }

  const repo = new FilesRepository(db, upload.userId);
  const id = randomUUID();
  const key = objectKey(id);
  const reservation = await repo.reserve(
    {
      id,
      storage_key: key,
      name: upload.name,
      content_type: upload.contentType,
      purpose: upload.purpose,
      conversation_id: upload.conversationId,
    },
    {
      want: upload.declaredSize ?? limits.maxFileBytes,
      exact: upload.declaredSize !== undefined,
      quota: limits.storageQuotaBytes,
    },
  );
  if (!reservation.ok) {
    if (reservation.reason === 'conversation') throw conversationNotFound();
    throw quotaExceeded(reservation.used, limits, plan);
  }

  // Past the reservation is past the per-file limit, unless the quota left less than that.
  const quotaBinds = reservation.reserved < limits.maxFileBytes;
  const source = watchSource(upload.body);
  const meter = new UploadMeter(upload.contentType, reservation.reserved);
  const metered = pipeline(upload.body, meter, () => undefined);
  try {
    await deps.storage.put(key, metered, {
      contentType: upload.contentType,
      ...(upload.declaredSize !== undefined && { size: upload.declaredSize }),
    });
  } catch (error) {
    await repo
      .remove(id)
      .catch((e: unknown) => deps.log.error({ err: e, fileId: id }, 'upload row kept'));
    if (error instanceof UploadTooLargeError) {
      if (!quotaBinds) throw tooLarge(limits, plan);
      throw quotaExceeded(await repo.usedBytes(), limits, plan);
    }
    if (error instanceof ContentMismatchError) {
      throw new ApiError(
        415,
        'storage:content_mismatch',
        messageFor('storage:content_mismatch', {
          label: acceptedFileTypes[upload.contentType].label,
        }),
      );
    }
    if (error instanceof EmptyUploadError) throw emptyFile();
    if (error instanceof StorageUnavailableError) {
      deps.log.error(
        { err: error.cause, fileId: id, driver: deps.storage.kind },
        'upload not stored',
      );
      throw storageUnavailable();
    }
    if (source.sourceError !== undefined) {
      // The client went away mid-upload; the answer is for whoever retries.
      deps.log.info({ fileId: id, reason: String(source.sourceError) }, 'upload cut off');
      throw new ApiError(400, 'storage:upload_incomplete');
    }
    throw error;
  }

  const stored = await repo
    .complete(id, { size: meter.bytes, sha256: meter.digest() })
    .catch(async (error: unknown) => {
      await deps.storage.delete(key).catch(() => undefined);
      throw error;
    });
  if (!stored) {
    // The conversation (and with it this row) was deleted while the bytes streamed in.
    await deps.storage.delete(key).catch(() => undefined);
    throw conversationNotFound();
  }
  return stored;
};
