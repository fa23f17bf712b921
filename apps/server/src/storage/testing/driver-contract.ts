import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectKey, StorageUnavailableError, type StorageDriver } from '../driver.ts';

export type DriverUnderTest = {
  driver: StorageDriver;
  /** Makes the store fail every operation, as a lost disk or a stopped server does. */
  breakStore(): Promise<void>;
  repairStore(): Promise<void>;
  close(): Promise<void>;
};

/** `total` bytes of a repeating, position-dependent pattern, in chunks of `chunk` bytes. */
export const patternStream = (total: number, chunk = 64 * 1024, failAfter?: number) =>
  Readable.from(
    (function* () {
      for (let offset = 0; offset < total; offset += chunk) {
        if (failAfter !== undefined && offset >= failAfter) throw new Error('source broke');
        const size = Math.min(chunk, total - offset);
        const buf = Buffer.allocUnsafe(size);
        for (let i = 0; i < size; i++) buf[i] = (offset + i) % 251;
        yield buf;
      }
    })(),
  );

const patternHash = async (total: number) => {
  const hash = createHash('sha256');
  for await (const chunk of patternStream(total)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

const readAll = async (body: ReadableStream<Uint8Array>) => {
  const hash = createHash('sha256');
  let size = 0;
  const parts: Buffer[] = [];
  for await (const chunk of Readable.fromWeb(body as never)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (parts.length < 64) parts.push(chunk as Buffer);
  }
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(parts) };
};

const newKey = () => objectKey(randomUUID());

/** One suite, every driver: what `StorageDriver` promises, checked against a real store. */
export const describeDriverContract = (name: string, setup: () => Promise<DriverUnderTest>) => {
  describe(`${name} storage driver`, () => {
    let t: DriverUnderTest;
    beforeAll(async () => {
      t = await setup();
    });
    afterAll(() => t.close());

    it('stores a streamed object and streams the same bytes back', async () => {
      const key = newKey();
      const size = 300_000;
      const put = await t.driver.put(key, patternStream(size, 10_000), {
        contentType: 'application/pdf',
      });
      expect(put.size).toBe(size);
      expect(await t.driver.exists(key)).toBe(true);
      const got = await t.driver.get(key);
      expect(got?.size).toBe(size);
      const read = await readAll(got!.body);
      expect(read.size).toBe(size);
      expect(read.sha256).toBe(await patternHash(size));
    });

    it('stores an object larger than one multipart part', async () => {
      const key = newKey();
      const size = 11 * 1024 * 1024 + 17;
      expect(
        (await t.driver.put(key, patternStream(size), { contentType: 'text/plain' })).size,
      ).toBe(size);
      const read = await readAll((await t.driver.get(key))!.body);
      expect(read.sha256).toBe(await patternHash(size));
    });

    it('streams just the asked byte range', async () => {
      const key = newKey();
      await t.driver.put(key, patternStream(100_000), { contentType: 'text/plain', size: 100_000 });
      const got = await t.driver.get(key, { start: 70_000, end: 70_009 });
      expect(got?.size).toBe(10);
      const read = await readAll(got!.body);
      expect([...read.head]).toEqual(Array.from({ length: 10 }, (_, i) => (70_000 + i) % 251));
    });

    it('answers a missing key with null and false, and deletes it without complaint', async () => {
      const key = newKey();
      expect(await t.driver.get(key)).toBeNull();
      expect(await t.driver.exists(key)).toBe(false);
      await expect(t.driver.delete(key)).resolves.toBeUndefined();
    });

    it('deletes an object, and deleting it again succeeds', async () => {
      const key = newKey();
      await t.driver.put(key, patternStream(1000), { contentType: 'text/plain' });
      await t.driver.delete(key);
      expect(await t.driver.exists(key)).toBe(false);
      expect(await t.driver.get(key)).toBeNull();
      await t.driver.delete(key);
    });

    it('rejects with the source’s error and leaves no object when the source fails', async () => {
      for (const failAfter of [0, 100_000, 6 * 1024 * 1024]) {
        const key = newKey();
        await expect(
          t.driver.put(key, patternStream(8 * 1024 * 1024, 64 * 1024, failAfter), {
            contentType: 'text/plain',
          }),
        ).rejects.toThrow('source broke');
        expect(await t.driver.exists(key), `failed after ${failAfter} bytes`).toBe(false);
      }
    });

    it('refuses keys that could leave the store’s root before touching the store', async () => {
      for (const key of [
        '../escape',
        '/etc/passwd',
        'files/../../x',
        'files/.hidden',
        'A/b',
        '',
        'a\\b',
      ]) {
        await expect(
          t.driver.put(key, patternStream(10), { contentType: 'text/plain' }),
        ).rejects.toThrow(/invalid storage key/);
        await expect(t.driver.get(key)).rejects.toThrow(/invalid storage key/);
        await expect(t.driver.delete(key)).rejects.toThrow(/invalid storage key/);
      }
    });

    it('reports a failing store as StorageUnavailableError and keeps its objects', async () => {
      const key = newKey();
      await t.driver.put(key, patternStream(1000), { contentType: 'text/plain' });
      await t.breakStore();
      try {
        await expect(
          t.driver.put(newKey(), patternStream(1000), { contentType: 'text/plain' }),
        ).rejects.toBeInstanceOf(StorageUnavailableError);
        await expect(t.driver.get(key)).rejects.toBeInstanceOf(StorageUnavailableError);
        await expect(t.driver.delete(key)).rejects.toBeInstanceOf(StorageUnavailableError);
        await expect(t.driver.exists(key)).rejects.toBeInstanceOf(StorageUnavailableError);
      } finally {
        await t.repairStore();
      }
      expect(await t.driver.exists(key)).toBe(true);
    });
  });
};
