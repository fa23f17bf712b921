import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Transform } from 'node:stream';
import { assertKey, StorageUnavailableError, watchSource, type StorageDriver } from './driver.ts';

export type S3Settings = {
  bucket: string;
  region: string;
  /** An S3-compatible store's URL (MinIO, R2, Ceph, …); unset for AWS itself. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
};

/** Multipart parts: S3's minimum size, one in flight, so an upload holds at most ~5 MB. */
const PART_SIZE = 5 * 1024 * 1024;

const isNotFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404);

const fail = (operation: string, error: unknown): never => {
  throw new StorageUnavailableError(operation, { cause: error });
};

/**
 * Objects in one bucket of any S3-compatible store. Uploads stream through lib-storage's
 * `Upload` (a single PutObject below 5 MB, multipart above, one part in memory at a time);
 * downloads stream the response body. Checksums are only sent where the API requires them, as
 * several S3-compatible stores reject the SDK's newer default trailing checksums.
 */
export const createS3Driver = (settings: S3Settings): StorageDriver => {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;

  return {
    kind: 's3',

    async put(key, body, { contentType, size }) {
      const Key = assertKey(key);
      const watch = watchSource(body);
      let counted = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          counted += chunk.length;
          done(null, chunk);
        },
      });
      body.once('error', (error) => counter.destroy(error));
      const upload = new Upload({
        client,
        params: {
          Bucket,
          Key,
          Body: body.pipe(counter),
          ContentType: contentType,
          ...(size !== undefined && { ContentLength: size }),
        },
        queueSize: 1,
        partSize: PART_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
        return { size: counted };
      } catch (error) {
        if (watch.sourceError !== undefined) throw watch.sourceError;
        watch.storeFailed();
        body.destroy();
        return fail('put', error);
      }
    },

    async get(key, range) {
      const Key = assertKey(key);
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key,
            ...(range && { Range: `bytes=${range.start}-${range.end}` }),
          }),
        );
        if (!res.Body) return fail('get', new Error('no body in the answer'));
        return {
          body: res.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          size: res.ContentLength ?? 0,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        return fail('get', error);
      }
    },

    async delete(key) {
      const Key = assertKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key }));
      } catch (error) {
        if (!isNotFound(error)) fail('delete', error);
      }
    },

    async exists(key) {
      const Key = assertKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        return fail('exists', error);
      }
    },

    async close() {
      client.destroy();
    },
  };
};
