import type { Readable } from 'node:stream';

/** Inclusive byte offsets, as in an HTTP `Range: bytes=start-end`. */
export type ByteRange = { start: number; end: number };

export type PutOptions = {
  contentType: string;
  /** The exact length when known in advance (lets S3 skip multipart for small files). */
  size?: number;
};

export type StoredObject = {
  /** The bytes (of the range, when one was asked for), streamed from the store. */
  body: ReadableStream<Uint8Array>;
  /** How many bytes `body` carries. */
  size: number;
};

/**
 * Where file bytes live (ARCHITECTURE §6): local disk by default, an S3-compatible store when
 * STORAGE_S3_* is set. Keys come from `objectKey` only, never from anything a user sent.
 *
 * The contract every driver keeps (`testing/driver-contract.ts` runs it against each):
 * - `put` streams; it never holds the whole object in memory. When the source stream fails,
 *   `put` rejects with the source's own error and no object is left under the key. An object
 *   appears under its key only once complete.
 * - `get` and `exists` answer null / false for a missing key; `delete` of a missing key succeeds.
 * - A failure of the store itself rejects with `StorageUnavailableError`.
 */
export type StorageDriver = {
  readonly kind: 'local' | 's3';
  put(key: string, body: Readable, options: PutOptions): Promise<{ size: number }>;
  get(key: string, range?: ByteRange): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  close(): Promise<void>;
};

/** The store could not be reached or refused the operation; nothing about the request is wrong. */
export class StorageUnavailableError extends Error {
  override name = 'StorageUnavailableError';
  constructor(operation: string, options: { cause: unknown }) {
    super(`storage ${operation} failed`, options);
  }
}

const keyPattern = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_-]*)*$/;

/** Defence in depth: a key can never contain `..`, a leading slash, a dot or a backslash. */
export const assertKey = (key: string): string => {
  if (key.length > 200 || !keyPattern.test(key)) throw new Error(`invalid storage key: ${key}`);
  return key;
};

/** The key of a file's bytes: its server-generated id, under a two-character shard. */
export const objectKey = (fileId: string): string => {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(fileId)) {
    throw new Error('a file id is a lowercase uuid');
  }
  return assertKey(`files/${fileId.slice(0, 2)}/${fileId}`);
};

/**
 * Tells a failing source apart from a failing store while one is piped into the other. A failed
 * pipe destroys both sides with the same error, so what counts is which side failed first.
 */
export const watchSource = (source: Readable) => {
  let sourceError: unknown;
  let settled = false;
  source.once('error', (error) => {
    if (!settled) sourceError = error;
    settled = true;
  });
  return {
    /** Call when the store's side fails. */
    storeFailed() {
      settled = true;
    },
    /** The source's error when the source failed first; undefined otherwise. */
    get sourceError(): unknown {
      return sourceError;
    },
  };
};

/**
 * A whole stored object in memory, or null when there is none: for work that needs every byte at
 * once (parsing a document). Only for objects already held to a plan's per-file limit.
 */
export const readObjectBytes = async (
  storage: Pick<StorageDriver, 'get'>,
  key: string,
): Promise<Uint8Array | null> => {
  const object = await storage.get(key);
  return object ? new Uint8Array(await new Response(object.body).arrayBuffer()) : null;
};
