import { createHash, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import type { FileLink, FilePage, StoredFile } from '@chorus/shared/api/files';
import { MB } from '@chorus/shared/limits';
import { storageMessages } from '@chorus/shared/messages';
import { files } from '../../../db/schema/index.ts';
import { objectKey } from '../../../storage/driver.ts';
import { sweepAbandonedUploads } from '../../../storage/abandoned-uploads.ts';
import {
  startS3Server,
  TEST_BUCKET,
  type TestS3Server,
} from '../../../storage/testing/s3-server.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// The whole app over real HTTP, its files in a real S3-compatible server.
let s3: TestS3Server;
let t: TestApp;
let server: ServerType;
let base: string;
let ann: Awaited<ReturnType<TestApp['user']>>;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await startTestApp({ env: s3.env });
  server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ann = await t.user('ann-s3@example.com');
});
afterAll(async () => {
  // fetch keeps its sockets alive; they would hold close() open.
  (server as unknown as { closeAllConnections(): void }).closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  await s3.close();
});

const http = (url: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${base}${url}`, {
    ...init,
    headers: {
      cookie: [...ann.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      // As the app's own page sends it (the origin check of state-changing requests).
      origin: t.config.appUrl,
      ...init.headers,
    },
  });

/** Objects s3rver holds in the bucket (its file store keeps one `._S3rver_object` per key). */
const bucketObjects = () =>
  (readdirSync(path.join(s3.directory, TEST_BUCKET), { recursive: true }) as string[]).filter(
    (name) => name.endsWith('._S3rver_object'),
  );

const pdf = (size: number) => {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 199;
  bytes.write('%PDF-1.7\n');
  return bytes;
};

describe('/storage/v1 on S3', () => {
  it('uploads over HTTP into the bucket (multipart past 5 MB) and downloads through a signed link', async () => {
    expect(t.deps.storage.kind).toBe('s3');
    const body = pdf(6 * MB + 3);
    const res = await http('/storage/v1/files', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/pdf', 'x-file-name': 'big.pdf' },
    });
    expect(res.status).toBe(201);
    const file = (await res.json()) as StoredFile;
    expect(file.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(await t.deps.storage.exists(objectKey(file.id))).toBe(true);

    const link = (await (
      await http(`/storage/v1/files/${file.id}/link`, { method: 'POST' })
    ).json()) as FileLink;
    const downloaded = await fetch(link.url.replace(t.config.appUrl, base));
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(body)).toBe(true);

    const ranged = await fetch(link.url.replace(t.config.appUrl, base), {
      headers: { range: 'bytes=5242878-5242881' },
    });
    expect(ranged.status).toBe(206);
    expect([...Buffer.from(await ranged.arrayBuffer())]).toEqual([
      ...body.subarray(5242878, 5242882),
    ]);
  });

  it('answers a streamed upload past the limit with 413 over the wire, leaving nothing in the bucket', async () => {
    const before = bucketObjects().length;
    let sent = 0;
    const source = Readable.from(
      (function* () {
        while (sent < 30 * MB) {
          const chunk = Buffer.alloc(64 * 1024, 0x61);
          sent += chunk.length;
          yield chunk;
        }
      })(),
    );
    const res = await http('/storage/v1/files', {
      method: 'POST',
      body: Readable.toWeb(source) as ReadableStream,
      duplex: 'half',
      headers: { 'content-type': 'text/plain', 'x-file-name': 'endless.txt' },
    } as RequestInit & { headers: Record<string, string> });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('storage:file_too_large');
    expect(await t.db.select().from(files).where(eq(files.user_id, ann.id))).toHaveLength(1);
    expect(bucketObjects().length).toBe(before);
  });

  it('keeps a conversation whose files cannot be deleted while S3 is down, and deletes it once S3 is back', async () => {
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', { title: 'S3 chat' }))
      .body;
    await ann.post<Message>(`/rest/v1/conversations/${conv.id}/messages`, {
      content: 'with a file',
      role: 'user',
    });
    const uploaded = await http(`/storage/v1/files?conversation_id=${conv.id}`, {
      method: 'POST',
      body: 'attached notes',
      headers: { 'content-type': 'text/plain', 'x-file-name': 'notes.txt' },
    });
    const file = (await uploaded.json()) as StoredFile;
    expect(file.conversation_id).toBe(conv.id);

    await s3.stop();
    try {
      const refused = await http(`/rest/v1/conversations/${conv.id}`, { method: 'DELETE' });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({
        error: storageMessages.conversationFilesNotDeleted,
      });
      const unreachable = await http('/storage/v1/files', {
        method: 'POST',
        body: 'more',
        headers: { 'content-type': 'text/plain', 'x-file-name': 'more.txt' },
      });
      expect(unreachable.status).toBe(503);
    } finally {
      await s3.start();
    }
    const messages = await ann.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`);
    expect(messages.body.map((m) => m.content)).toEqual(['with a file']);
    const listed = await ann.get<FilePage>(`/storage/v1/files?conversation_id=${conv.id}`);
    expect(listed.body.files.map((f) => f.id)).toEqual([file.id]);
    expect(await t.deps.storage.exists(objectKey(file.id))).toBe(true);

    expect((await http(`/rest/v1/conversations/${conv.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect(await t.deps.storage.exists(objectKey(file.id))).toBe(false);
    expect((await ann.get(`/storage/v1/files/${file.id}`)).status).toBe(404);
  });

  it('removes uploads a crash left unfinished for a day, with their objects, at start', async () => {
    const stale = randomUUID();
    const fresh = randomUUID();
    for (const [id, created_at] of [
      [stale, new Date(Date.now() - 25 * 60 * 60 * 1000)],
      [fresh, new Date()],
    ] as const) {
      await t.deps.storage.put(objectKey(id), Readable.from([Buffer.from('partial')]), {
        contentType: 'text/plain',
      });
      await t.db.insert(files).values({
        id,
        user_id: ann.id,
        purpose: 'attachment',
        name: 'cut.txt',
        content_type: 'text/plain',
        size_bytes: 7,
        storage_key: objectKey(id),
        status: 'uploading',
        created_at,
      });
    }
    expect(await sweepAbandonedUploads(t.deps)).toBe(1);
    expect(await t.deps.storage.exists(objectKey(stale))).toBe(false);
    expect(await t.db.select().from(files).where(eq(files.id, stale))).toEqual([]);
    expect(await t.deps.storage.exists(objectKey(fresh))).toBe(true);
    expect(await t.db.select().from(files).where(eq(files.id, fresh))).toHaveLength(1);
  });
});
