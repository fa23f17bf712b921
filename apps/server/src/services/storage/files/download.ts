import type { Context } from 'hono';
import { messageFor } from '@chorus/shared/error-catalogue';
import { errorBody } from '../../../http/errors.ts';
import type { FileRow } from '../../../db/repositories/files.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { StorageUnavailableError, type ByteRange } from '../../../storage/driver.ts';
import { storageUnavailable } from './file-errors.ts';

/** A single `bytes=a-b`, `bytes=a-` or `bytes=-n`; null for none, 'unsatisfiable' past the end. */
export const parseRange = (
  header: string | undefined,
  size: number,
): ByteRange | null | 'unsatisfiable' => {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from, to] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
};

/** `filename` for old clients (ASCII, quoted) and `filename*` (RFC 5987) for the real name. */
export const contentDisposition = (name: string) => {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
};

/**
 * Uploaded bytes must never run as part of this origin: always an attachment, never sniffed,
 * and anything but an image sandboxed (no scripts, no same-origin, no plugins) by its own CSP.
 */
const contentSecurityPolicy = (contentType: string) =>
  contentType.startsWith('image/')
    ? "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
    : "default-src 'none'; sandbox";

/** Streams a file from the driver to the client, whole or one range. */
export const downloadResponse = async (c: Context<AppEnv>, row: FileRow, expiresAt: number) => {
  const range = parseRange(c.req.header('range'), row.size_bytes);
  const headers = new Headers({
    'Content-Type': row.content_type,
    'Content-Disposition': contentDisposition(row.name),
    'Content-Security-Policy': contentSecurityPolicy(row.content_type),
    'X-Content-Type-Options': 'nosniff',
    'Accept-Ranges': 'bytes',
    // Private: the link is the permission. Cached no longer than the link lives.
    'Cache-Control': `private, max-age=${Math.max(0, expiresAt - Math.floor(Date.now() / 1000))}`,
    ETag: `"${row.sha256}"`,
  });
  if (range === 'unsatisfiable') {
    return c.json(errorBody(messageFor('storage:bad_range'), 'storage:bad_range'), 416, {
      'Content-Range': `bytes */${row.size_bytes}`,
    });
  }
  let object;
  try {
    object = await c.var.deps.storage.get(row.storage_key, range ?? undefined);
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    c.var.deps.log.error({ err: error.cause, fileId: row.id }, 'file not read');
    throw storageUnavailable();
  }
  if (!object) {
    c.var.deps.log.error({ fileId: row.id, key: row.storage_key }, 'file row without its object');
    throw storageUnavailable();
  }
  headers.set('Content-Length', String(object.size));
  if (range) headers.set('Content-Range', `bytes ${range.start}-${range.end}/${row.size_bytes}`);
  return new Response(object.body, { status: range ? 206 : 200, headers });
};
