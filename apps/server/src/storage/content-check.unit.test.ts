import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { acceptedFileTypeList, type AcceptedFileType } from '@chorus/shared/limits';
import { contentMatches, SNIFF_BYTES } from './content-check.ts';
import {
  ContentMismatchError,
  EmptyUploadError,
  UploadMeter,
  UploadTooLargeError,
} from './upload-meter.ts';

const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const samples: Record<AcceptedFileType, Buffer> = {
  'text/plain': Buffer.from('Hello, world\n'),
  'text/markdown': Buffer.from('# Title\n\nSome *text*.'),
  'text/csv': Buffer.from('name,count\nAnn,3\n'),
  'application/json': Buffer.from('{"a": [1, 2]}'),
  'text/html': Buffer.from('<!doctype html><p>Hi</p>'),
  'application/pdf': Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'),
  [docx]: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]),
  'image/gif': Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
  'image/webp': Buffer.concat([
    Buffer.from('RIFF'),
    Buffer.from([0x24, 0, 0, 0]),
    Buffer.from('WEBPVP8 '),
  ]),
};

describe('contentMatches', () => {
  it('accepts each accepted type with its own first bytes', () => {
    for (const type of acceptedFileTypeList)
      expect(contentMatches(type, samples[type]), type).toBe(true);
  });

  it('refuses every binary sample sent as another type', () => {
    const binary: AcceptedFileType[] = [
      'application/pdf',
      docx,
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
    ];
    for (const actual of binary) {
      for (const declared of acceptedFileTypeList) {
        if (declared === actual) continue;
        expect(contentMatches(declared, samples[actual]), `${actual} sent as ${declared}`).toBe(
          false,
        );
      }
    }
  });

  it('refuses text that carries NUL bytes, such as an executable sent as text/plain', () => {
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]);
    expect(contentMatches('text/plain', elf)).toBe(false);
    expect(contentMatches('text/html', Buffer.from('<p>\u0000</p>'))).toBe(false);
  });

  it('refuses an image whose signature is cut short', () => {
    expect(contentMatches('image/png', samples['image/png'].subarray(0, 4))).toBe(false);
    expect(contentMatches('image/webp', Buffer.from('RIFF\x24\x00\x00\x00WAVE'))).toBe(false);
  });
});

const run = async (meter: UploadMeter, chunks: Buffer[]) => {
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    meter,
    new Writable({
      write(chunk: Buffer, _e, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(out);
};

describe('UploadMeter', () => {
  it('passes every byte through unchanged, counting and hashing them', async () => {
    const chunks = [samples['application/pdf'], Buffer.alloc(SNIFF_BYTES, 7), Buffer.alloc(10, 1)];
    const meter = new UploadMeter('application/pdf', 1_000_000);
    const out = await run(meter, chunks);
    const all = Buffer.concat(chunks);
    expect(out.equals(all)).toBe(true);
    expect(meter.bytes).toBe(all.length);
    expect(meter.digest()).toBe(createHash('sha256').update(all).digest('hex'));
  });

  it('holds back the first bytes until they are checked, so a mismatch passes nothing on', async () => {
    const passed: Buffer[] = [];
    const meter = new UploadMeter('image/png', 1_000_000);
    meter.on('data', (chunk: Buffer) => passed.push(chunk));
    await expect(
      pipeline(Readable.from([Buffer.from('%PDF-1.4'), Buffer.alloc(SNIFF_BYTES)]), meter),
    ).rejects.toBeInstanceOf(ContentMismatchError);
    expect(passed).toEqual([]);
  });

  it('fails as soon as the stream passes the limit', async () => {
    let produced = 0;
    const source = Readable.from(
      (function* () {
        for (let i = 0; i < 100; i++) {
          produced += 1000;
          yield Buffer.alloc(1000, 0x61);
        }
      })(),
    );
    await expect(run(new UploadMeter('text/plain', 5000), [])).rejects.toBeInstanceOf(
      EmptyUploadError,
    );
    await expect(
      pipeline(
        source,
        new UploadMeter('text/plain', 5000),
        new Writable({ write: (_c, _e, d) => d() }),
      ),
    ).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(produced).toBeLessThan(100_000);
  });

  it('accepts a file of exactly the limit', async () => {
    const meter = new UploadMeter('text/plain', 5000);
    expect((await run(meter, [Buffer.alloc(5000, 0x61)])).length).toBe(5000);
  });
});
