import { Readable } from 'node:stream';
import type { StoredFile } from '@chorus/shared/api/files';
import {
  acceptedFileTypeList,
  fileLinkTtlSeconds,
  isAcceptedFileType,
} from '@chorus/shared/limits';
import { messageFor } from '@chorus/shared/error-catalogue';
import { decodeCursor, encodeCursor } from '../../../db/keyset-cursor.ts';
import {
  FilesRepository,
  findFileForSignedLink,
  type FileRow,
} from '../../../db/repositories/files.ts';
import { findPlanForUser } from '../../../db/repositories/pricing-plans.ts';
import type { AppEnv, AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { StorageUnavailableError } from '../../../storage/driver.ts';
import { fileNotFound, storageUnavailable } from './file-errors.ts';
import {
  createFileLinkRoute,
  deleteFileRoute,
  downloadObjectRoute,
  getFileRoute,
  listFilesRoute,
  storageUsageRoute,
  uploadFileRoute,
} from './files.routes.ts';
import { downloadResponse } from './download.ts';
import { fileLimitsOf, storeUpload } from './upload.ts';
import { isUuid } from '../../../http/uuid.ts';

export const toStoredFile = (row: FileRow): StoredFile => ({
  id: row.id,
  name: row.name,
  content_type: row.content_type,
  size_bytes: row.size_bytes,
  sha256: row.sha256 ?? '',
  purpose: row.purpose,
  conversation_id: row.conversation_id,
  created_at: row.created_at.toISOString(),
});

/** A display name from `X-File-Name`: percent-decoded, without any path, without control characters. */
const displayName = (header: string): string | null => {
  let decoded = header;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    // Not percent-encoded: taken as it came.
  }
  // eslint-disable-next-line no-control-regex
  const name = (decoded.split(/[/\\]/).at(-1) ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return name === '' || name.length > 255 ? null : name;
};

/** Content-Length as a number, when the client sent a valid one. */
const declaredLength = (header: string | undefined): number | undefined =>
  header !== undefined && /^\d{1,15}$/.test(header) ? Number(header) : undefined;

export const filesRouter = createRouter<AuthedEnv>()
  .openapi(uploadFileRoute, async (c) => {
    const { purpose, conversation_id } = c.req.valid('query');
    const name = displayName(c.req.valid('header')['x-file-name']);
    if (!name) throw new ApiError(400, 'storage:name_required');
    const contentType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!isAcceptedFileType(contentType)) {
      throw new ApiError(
        415,
        'storage:unsupported_type',
        messageFor('storage:unsupported_type', { type: contentType }),
      );
    }
    const body = c.req.raw.body;
    if (!body) throw new ApiError(400, 'storage:empty');
    const row = await storeUpload(c.var.deps, {
      userId: c.var.user.id,
      name,
      contentType,
      purpose,
      conversationId: conversation_id ?? null,
      declaredSize: declaredLength(c.req.header('content-length')),
      body: Readable.fromWeb(body as never),
    });
    c.var.deps.log.info(
      { userId: c.var.user.id, fileId: row.id, bytes: row.size_bytes, type: row.content_type },
      'file stored',
    );
    return c.json(toStoredFile(row), 201);
  })
  .openapi(listFilesRoute, async (c) => {
    const { limit, cursor, purpose, conversation_id } = c.req.valid('query');
    const after = cursor ? decodeCursor(cursor) : undefined;
    if (after === null) {
      throw new ApiError(400, 'storage:bad_cursor');
    }
    const repo = new FilesRepository(c.var.deps.database.db, c.var.user.id);
    // One extra row tells whether another page exists without a count query.
    const rows = await repo.list({
      limit: limit + 1,
      after,
      purpose,
      conversationId: conversation_id,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        files: page.map(toStoredFile),
        next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
      },
      200,
    );
  })
  .openapi(storageUsageRoute, async (c) => {
    const { db } = c.var.deps.database;
    const [plan, used] = await Promise.all([
      findPlanForUser(db, c.var.user.id),
      new FilesRepository(db, c.var.user.id).usedBytes(),
    ]);
    const limits = fileLimitsOf(plan);
    return c.json(
      {
        plan_name: plan.name,
        used_bytes: used,
        max_file_bytes: limits.maxFileBytes,
        storage_quota_bytes: limits.storageQuotaBytes,
        accepted_types: acceptedFileTypeList,
      },
      200,
    );
  })
  .openapi(getFileRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw fileNotFound();
    const row = await new FilesRepository(c.var.deps.database.db, c.var.user.id).get(id);
    if (!row) throw fileNotFound();
    return c.json(toStoredFile(row), 200);
  })
  .openapi(deleteFileRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw fileNotFound();
    const repo = new FilesRepository(c.var.deps.database.db, c.var.user.id);
    const row = await repo.get(id);
    if (!row) throw fileNotFound();
    try {
      await c.var.deps.storage.delete(row.storage_key);
    } catch (error) {
      if (!(error instanceof StorageUnavailableError)) throw error;
      c.var.deps.log.error({ err: error.cause, fileId: id }, 'file not deleted');
      throw storageUnavailable();
    }
    await repo.remove(id);
    return c.body(null, 204);
  })
  .openapi(createFileLinkRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw fileNotFound();
    const ttl = c.req.valid('json').expires_in ?? fileLinkTtlSeconds.default;
    const row = await new FilesRepository(c.var.deps.database.db, c.var.user.id).get(id);
    if (!row) throw fileNotFound();
    const { exp, sig } = c.var.deps.links.sign(row.id, ttl);
    const url = `${c.var.deps.config.appUrl}/storage/v1/object/${row.id}?exp=${exp}&sig=${sig}`;
    return c.json({ url, expires_at: new Date(exp * 1000).toISOString() }, 200);
  });

/** Signed links need no session: the signature is the permission (and it is checked first). */
export const objectRouter = createRouter<AppEnv>().openapi(downloadObjectRoute, async (c) => {
  const { id } = c.req.valid('param');
  const { exp, sig } = c.req.valid('query');
  const check = isUuid(id) ? c.var.deps.links.verify(id, exp, sig) : 'invalid';
  if (check === 'invalid') throw new ApiError(403, 'storage:link_invalid');
  if (check === 'expired') throw new ApiError(403, 'storage:link_expired');
  const row = await findFileForSignedLink(c.var.deps.database.db, id);
  if (!row) throw fileNotFound();
  return downloadResponse(c, row, Number(exp));
});
