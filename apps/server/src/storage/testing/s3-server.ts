import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export const TEST_BUCKET = 'chorus-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export type TestS3Server = Awaited<ReturnType<typeof startS3Server>>;

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1, a free port and a directory of its own,
 * with one bucket. `stop()` drops open connections at once, as a crashed store would;
 * `start()` brings it back on the same port with the same data.
 */
export const startS3Server = async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'chorus-s3-'));
  const create = (port: number) =>
    new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: TEST_BUCKET }],
    });
  let server = create(0);
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (!running) return;
    running = false;
    server.httpServer?.closeAllConnections();
    await server.close();
  };

  return {
    endpoint,
    directory,
    settings: {
      bucket: TEST_BUCKET,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      ...CREDENTIALS,
    },
    /** The STORAGE_S3_* variables that point Chorus at this server. */
    env: {
      STORAGE_S3_BUCKET: TEST_BUCKET,
      STORAGE_S3_REGION: 'us-east-1',
      STORAGE_S3_ENDPOINT: endpoint,
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
      STORAGE_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      STORAGE_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    },
    stop,
    async start() {
      if (running) return;
      server = create(port);
      await server.run();
      running = true;
    },
    async close() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};
