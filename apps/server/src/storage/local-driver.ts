import { randomUUID } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, StorageUnavailableError, watchSource, type StorageDriver } from './driver.ts';

const TEMP_DIR = '.tmp';
/** Temporary files older than this belong to writes a crash cut off. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

const isMissing = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

const fail = (operation: string, error: unknown): never => {
  throw new StorageUnavailableError(operation, { cause: error });
};

/**
 * Objects as files under `root` (DATA_DIR/storage). A write goes to `root/.tmp/<random>` and is
 * renamed into place once complete and flushed, so a reader never sees half an object and a
 * crash leaves only a temporary file, swept on the next start. Keys are checked against the
 * key pattern and the resolved path must stay inside `root`.
 */
export const createLocalDriver = (root: string): StorageDriver => {
  const base = path.resolve(root);
  const temp = path.join(base, TEMP_DIR);
  mkdirSync(temp, { recursive: true, mode: 0o700 });
  sweepStaleTemp(temp);

  const pathOf = (key: string) => {
    const full = path.resolve(base, assertKey(key));
    if (!full.startsWith(base + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  };

  return {
    kind: 'local',

    async put(key, body) {
      const target = pathOf(key);
      const partial = path.join(temp, randomUUID());
      const watch = watchSource(body);
      const out = createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true });
      out.once('error', watch.storeFailed);
      try {
        await pipeline(body, out);
        await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await rename(partial, target);
        return { size: out.bytesWritten };
      } catch (error) {
        await rm(partial, { force: true }).catch(() => undefined);
        if (watch.sourceError !== undefined) throw watch.sourceError;
        return fail('put', error);
      }
    },

    async get(key, range) {
      const file = pathOf(key);
      let size: number;
      try {
        size = (await stat(file)).size;
      } catch (error) {
        if (isMissing(error)) return null;
        return fail('get', error);
      }
      const stream = createReadStream(file, range ?? {});
      return {
        body: Readable.toWeb(stream) as ReadableStream<Uint8Array>,
        size: range ? range.end - range.start + 1 : size,
      };
    },

    async delete(key) {
      const file = pathOf(key);
      try {
        await unlink(file);
      } catch (error) {
        if (!isMissing(error)) fail('delete', error);
      }
    },

    async exists(key) {
      const file = pathOf(key);
      try {
        return (await stat(file)).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        return fail('exists', error);
      }
    },

    async close() {},
  };
};

const sweepStaleTemp = (temp: string) => {
  const cutoff = Date.now() - STALE_TEMP_MS;
  for (const name of readdirSync(temp)) {
    const file = path.join(temp, name);
    try {
      if (statSync(file).mtimeMs < cutoff) rmSync(file, { force: true });
    } catch {
      // Another instance sharing the directory removed it first.
    }
  }
};
