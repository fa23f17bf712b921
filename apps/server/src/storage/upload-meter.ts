import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { AcceptedFileType } from '@chorus/shared/limits';
import { contentMatches, SNIFF_BYTES } from './content-check.ts';

export class UploadTooLargeError extends Error {
  override name = 'UploadTooLargeError';
}
export class ContentMismatchError extends Error {
  override name = 'ContentMismatchError';
}
export class EmptyUploadError extends Error {
  override name = 'EmptyUploadError';
}

/**
 * Sits between the request body and the store: counts and hashes every byte, fails the stream
 * the moment it passes `limit` bytes, and holds back the first SNIFF_BYTES until they have been
 * checked against the declared type. Nothing else is buffered.
 */
export class UploadMeter extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  private checked = false;

  constructor(
    private readonly declared: AcceptedFileType,
    private readonly limit: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.limit)
      return done(new UploadTooLargeError(`more than ${this.limit} bytes`));
    this.hash.update(chunk);
    if (this.checked) return done(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return done();
    this.releaseHead(done);
  }

  override _flush(done: TransformCallback) {
    if (this.bytes === 0) return done(new EmptyUploadError('no bytes'));
    if (!this.checked) return this.releaseHead(done);
    done();
  }

  /** Hex SHA-256 of everything that passed; call once the stream has ended. */
  digest(): string {
    return this.hash.digest('hex');
  }

  private releaseHead(done: TransformCallback) {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.checked = true;
    if (!contentMatches(this.declared, head.subarray(0, SNIFF_BYTES))) {
      return done(new ContentMismatchError(`not ${this.declared}`));
    }
    done(null, head);
  }
}
