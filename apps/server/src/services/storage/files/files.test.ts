import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@chorus/shared/api/conversations';
import type { FileLink, FilePage, StorageUsage, StoredFile } from '@chorus/shared/api/files';
import { formatBytes } from '@chorus/shared/bytes';
import { acceptedFileTypeList, fileLimitDefaults, MB } from '@chorus/shared/limits';
import { messages as spec, storageMessages } from '@chorus/shared/messages';
import { files, messages, pricingPlans, profiles } from '../../../db/schema/index.ts';
import { objectKey } from '../../../storage/driver.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;

const logLines: string[] = [];
let t: TestApp;
let ann: Client;
let bob: Client;
let storageRoot: string;

beforeAll(async () => {
  t = await startTestApp({
    env: { LOG_LEVEL: 'debug' },
    logStream: new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  });
  storageRoot = path.join(t.config.dataDir, 'storage');
  ann = await t.user('ann-files@example.com');
  bob = await t.user('bob-files@example.com');
});
afterAll(() => t.close());

const pdf = (size: number) => {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write('%PDF-1.7\n');
  return bytes;
};
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48]);

const upload = async (
  who: Client,
  body: Buffer | ReadableStream<Uint8Array>,
  opts: { type?: string; name?: string; query?: string; length?: boolean } = {},
) => {
  const res = await who.send('POST', `/storage/v1/files${opts.query ?? ''}`, {
    body: body as RequestInit['body'],
    headers: {
      ...(opts.type !== '' && { 'content-type': opts.type ?? 'text/plain' }),
      ...(opts.name !== '' && { 'x-file-name': encodeURIComponent(opts.name ?? 'notes.txt') }),
      ...(opts.length && Buffer.isBuffer(body) && { 'content-length': String(body.length) }),
    },
  });
  return {
    status: res.status,
    body: (await res.json()) as StoredFile & { error: string; code: string },
  };
};

/** A body produced on demand, 64 KB at a time; `produced` tells how much the server pulled. */
const streamedBody = (total: number, first = Buffer.from('plain text\n')) => {
  const state = { produced: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.produced >= total) return controller.close();
      const size = Math.min(64 * 1024, total - state.produced);
      const chunk = Buffer.alloc(size, 0x61);
      if (state.produced === 0) first.copy(chunk);
      state.produced += size;
      controller.enqueue(chunk);
    },
  });
  return { stream, state };
};

const download = async (url: string, headers: Record<string, string> = {}) => {
  const res = await t.client().send('GET', url.replace(t.config.appUrl, ''), { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

const linkFor = async (who: Client, id: string) =>
  who.post<FileLink & { error: string }>(`/storage/v1/files/${id}/link`);

/** Objects under the storage root, and whether a temporary file was left behind. */
const storedObjects = () => {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(storageRoot, full));
    }
  };
  walk(storageRoot);
  return found;
};
const objectPath = (id: string) => path.join(storageRoot, objectKey(id));
const rowsOf = (userId: string) => t.db.select().from(files).where(eq(files.user_id, userId));

/** The storage directory replaced by a plain file: every disk operation fails (ENOTDIR). */
const breakStorage = () => {
  renameSync(storageRoot, `${storageRoot}.moved`);
  writeFileSync(storageRoot, 'not a directory');
};
const repairStorage = () => {
  rmSync(storageRoot);
  renameSync(`${storageRoot}.moved`, storageRoot);
};

describe('/storage/v1', () => {
  it('asks guests to sign in on every route but the signed download', async () => {
    const guest = t.client();
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['POST', '/storage/v1/files'],
      ['GET', '/storage/v1/files'],
      ['GET', '/storage/v1/usage'],
      ['GET', `/storage/v1/files/${id}`],
      ['DELETE', `/storage/v1/files/${id}`],
      ['POST', `/storage/v1/files/${id}/link`],
    ] as const) {
      const res = await guest.request(method, url);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toMatchObject({ error: spec.auth.required });
    }
    expect((await guest.get(`/storage/v1/object/${id}`)).status).toBe(403);
  });

  it('stores an upload streamed as the body and answers its metadata in snake_case', async () => {
    const body = pdf(2 * MB);
    const res = await upload(ann, body, {
      type: 'application/pdf',
      name: 'Résumé 2025.pdf',
      query: '?purpose=knowledge',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Résumé 2025.pdf',
      content_type: 'application/pdf',
      size_bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
      purpose: 'knowledge',
      conversation_id: null,
      created_at: expect.any(String),
    });
    // Larger than the 1 MB limit of /rest/v1: uploads have their own.
    expect(readFileSync(objectPath(res.body.id)).equals(body)).toBe(true);
    const again = await ann.get<StoredFile>(`/storage/v1/files/${res.body.id}`);
    expect(again.body).toEqual(res.body);
  });

  it('stores a body of unknown length streamed in chunks', async () => {
    const { stream } = streamedBody(3 * MB + 5);
    const res = await upload(ann, stream, { name: 'log.txt' });
    expect(res.status).toBe(201);
    expect(res.body.size_bytes).toBe(3 * MB + 5);
    expect(readFileSync(objectPath(res.body.id)).length).toBe(3 * MB + 5);
  });

  it('downloads through a short-lived signed link with safe headers, whole or by range', async () => {
    const body = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
    const file = (await upload(ann, body, { type: 'text/html', name: 'page "1".html' })).body;
    const link = await linkFor(ann, file.id);
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(
      new RegExp(`^${t.config.appUrl}/storage/v1/object/${file.id}\\?exp=\\d+&sig=[\\w-]{43}$`),
    );
    const lifetime = Date.parse(link.body.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);

    const whole = await download(link.body.url);
    expect(whole.res.status).toBe(200);
    expect(whole.bytes.equals(body)).toBe(true);
    expect(Object.fromEntries(whole.res.headers)).toMatchObject({
      'content-type': 'text/html',
      'content-length': String(body.length),
      'content-disposition': `attachment; filename="page _1_.html"; filename*=UTF-8''page%20%221%22.html`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'accept-ranges': 'bytes',
    });

    const part = await download(link.body.url, { range: 'bytes=15-22' });
    expect(part.res.status).toBe(206);
    expect(part.bytes.toString()).toBe('<script>');
    expect(part.res.headers.get('content-range')).toBe(`bytes 15-22/${body.length}`);
    const tail = await download(link.body.url, { range: 'bytes=-9' });
    expect(tail.bytes.toString()).toBe('</script>');
    const outside = await download(link.body.url, { range: `bytes=${body.length}-` });
    expect(outside.res.status).toBe(416);
    expect(outside.res.headers.get('content-range')).toBe(`bytes */${body.length}`);
  });

  it('serves images without the sandbox but still as a non-sniffed attachment', async () => {
    const file = (await upload(ann, png, { type: 'image/png', name: 'dot.png' })).body;
    const { res } = await download((await linkFor(ann, file.id)).body.url);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('refuses tampered, expired and asked-for link lifetimes out of bounds', async () => {
    const file = (await upload(ann, Buffer.from('secret'), { name: 'secret.txt' })).body;
    const { url } = (await linkFor(ann, file.id)).body;
    const tampered = url.replace(/sig=(.)/, (_m, ch: string) => `sig=${ch === 'A' ? 'B' : 'A'}`);
    const bad = await download(tampered);
    expect(bad.res.status).toBe(403);
    expect(JSON.parse(bad.bytes.toString())).toMatchObject({ error: storageMessages.linkInvalid });

    const stale = t.deps.links.sign(file.id, -1);
    const expired = await download(
      `/storage/v1/object/${file.id}?exp=${stale.exp}&sig=${stale.sig}`,
    );
    expect(expired.res.status).toBe(403);
    expect(JSON.parse(expired.bytes.toString())).toMatchObject({
      error: storageMessages.linkExpired,
    });

    const hour = await ann.post<FileLink>(`/storage/v1/files/${file.id}/link`, {
      expires_in: 3600,
    });
    expect(Date.parse(hour.body.expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    for (const expires_in of [5, 3601, 'soon']) {
      expect((await ann.post(`/storage/v1/files/${file.id}/link`, { expires_in })).status).toBe(
        400,
      );
    }
  });

  it('never writes a link’s signature to the logs', async () => {
    const file = (await upload(ann, Buffer.from('logged?'), { name: 'l.txt' })).body;
    const { url } = (await linkFor(ann, file.id)).body;
    const sig = new URL(url).searchParams.get('sig')!;
    await download(url);
    await download(url.replace(/sig=.*/, 'sig=wrong'));
    expect(logLines.join('\n')).toContain(`/storage/v1/object/${file.id}`);
    expect(logLines.join('\n')).not.toContain(sig);
  });

  it('refuses types outside the list with 415 naming the accepted ones, keeping nothing', async () => {
    const before = storedObjects().length;
    for (const type of ['image/svg+xml', 'application/x-msdownload', '']) {
      const res = await upload(ann, Buffer.from('<svg onload="alert(1)"/>'), { type });
      expect(res.status, type).toBe(415);
      expect(res.body.error).toBe(storageMessages.unsupportedType(type));
      expect(res.body.error).toContain(storageMessages.acceptedTypes);
    }
    expect(storageMessages.acceptedTypes).toContain('Word (.docx)');
    expect(acceptedFileTypeList).toHaveLength(11);
    expect(storedObjects().length).toBe(before);
  });

  it('refuses contents that do not match the declared type, keeping nothing', async () => {
    const rowsBefore = (await rowsOf(ann.id)).length;
    const objectsBefore = storedObjects().length;
    const cases = [
      [png, 'text/plain', 'text (.txt)'],
      [Buffer.from('just text'), 'application/pdf', 'PDF (.pdf)'],
      [pdf(100), 'image/png', 'PNG'],
      [Buffer.from('MZ\u0090\u0000\u0003'), 'text/csv', 'CSV (.csv)'],
    ] as const;
    for (const [body, type, label] of cases) {
      const res = await upload(ann, body, { type });
      expect(res.status, type).toBe(415);
      expect(res.body).toMatchObject({
        error: storageMessages.contentMismatch(label),
        code: 'storage:content_mismatch',
      });
    }
    expect((await rowsOf(ann.id)).length).toBe(rowsBefore);
    expect(storedObjects().length).toBe(objectsBefore);
    expect(readdirSync(path.join(storageRoot, '.tmp'))).toEqual([]);
  });

  it('refuses a file past the plan’s per-file limit mid-stream with 413, leaving no object and no row', async () => {
    const rowsBefore = (await rowsOf(ann.id)).length;
    const objectsBefore = storedObjects().length;
    const { stream, state } = streamedBody(20 * MB);
    const res = await upload(ann, stream, { name: 'huge.txt' });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      error: storageMessages.fileTooLarge(formatBytes(fileLimitDefaults.maxFileBytes), 'Free'),
      code: 'storage:file_too_large',
    });
    expect(res.body.error).toContain('10 MB');
    // Streamed, not buffered: the server stopped pulling soon after the limit.
    expect(state.produced).toBeLessThan(11 * MB);
    expect((await rowsOf(ann.id)).length).toBe(rowsBefore);
    expect(storedObjects().length).toBe(objectsBefore);
    expect(readdirSync(path.join(storageRoot, '.tmp'))).toEqual([]);

    // A declared length past the limit is refused before a byte is read.
    const declared = await upload(ann, pdf(10 * MB + 1), { type: 'application/pdf', length: true });
    expect(declared.status).toBe(413);
    const exactly = await upload(ann, pdf(10 * MB), { type: 'application/pdf', length: true });
    expect(exactly.status).toBe(201);
    await ann.del(`/storage/v1/files/${exactly.body.id}`);
  });

  it('refuses empty files and files without a name', async () => {
    const empty = await upload(ann, Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe(storageMessages.emptyFile);
    const unnamed = await upload(ann, Buffer.from('x'), { name: '' });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.error).toContain(storageMessages.nameRequired);
    const dots = await upload(ann, Buffer.from('x'), { name: '../../' });
    expect(dots.status).toBe(400);
  });

  it('keeps only the last part of a name that carries a path', async () => {
    const res = await upload(ann, Buffer.from('x'), { name: '../../etc/pass\u0007wd' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('passwd');
  });

  it('enforces the plan’s storage quota, also against parallel uploads', async () => {
    const cara = await t.user('cara-quota@example.com');
    const [tiny] = await t.db
      .insert(pricingPlans)
      .values({ name: 'Tiny', max_file_bytes: 800, storage_quota_bytes: 1000 })
      .returning();
    await t.db.update(profiles).set({ plan_id: tiny!.id }).where(eq(profiles.id, cara.id));

    expect((await upload(cara, Buffer.alloc(600, 0x61), { length: true })).status).toBe(201);
    const usage = await cara.get<StorageUsage>('/storage/v1/usage');
    expect(usage.body).toEqual({
      plan_name: 'Tiny',
      used_bytes: 600,
      max_file_bytes: 800,
      storage_quota_bytes: 1000,
      accepted_types: acceptedFileTypeList,
    });

    // 400 bytes left: of two 300-byte uploads at once, exactly one fits.
    const both = await Promise.all([
      upload(cara, Buffer.alloc(300, 0x62), { length: true }),
      upload(cara, Buffer.alloc(300, 0x63), { length: true }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 413]);
    expect(both.find((r) => r.status === 413)!.body.error).toBe(
      storageMessages.quotaExceeded('900 bytes', '1000 bytes', 'Tiny'),
    );

    // 100 bytes left, length unknown: refused once the stream passes them.
    const { stream } = streamedBody(500);
    const streamed = await upload(cara, stream);
    expect(streamed.status).toBe(413);
    expect(streamed.body.code).toBe('storage:quota_exceeded');
    expect((await rowsOf(cara.id)).map((r) => r.size_bytes).sort()).toEqual([300, 600]);

    // Past the per-file limit is refused as such, before the quota is looked at.
    const tooBig = await upload(cara, Buffer.alloc(801, 0x61), { length: true });
    expect(tooBig.body.error).toBe(storageMessages.fileTooLarge('800 bytes', 'Tiny'));
  });

  it('lists the user’s files newest first in pages, filtered by purpose or conversation', async () => {
    const dan = await t.user('dan-list@example.com');
    const conv = (await dan.post<Conversation>('/rest/v1/conversations', {})).body;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const query = i % 2 === 0 ? `?conversation_id=${conv.id}` : '?purpose=avatar';
      ids.push((await upload(dan, png, { type: 'image/png', name: `p${i}.png`, query })).body.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: FilePage } = await dan.get<FilePage>(
        `/storage/v1/files?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.files.map((f) => f.name));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['p4.png', 'p3.png', 'p2.png', 'p1.png', 'p0.png']);
    const avatars = await dan.get<FilePage>('/storage/v1/files?purpose=avatar');
    expect(avatars.body.files.map((f) => f.name)).toEqual(['p3.png', 'p1.png']);
    const inConv = await dan.get<FilePage>(`/storage/v1/files?conversation_id=${conv.id}`);
    expect(inConv.body.files.map((f) => f.conversation_id)).toEqual([conv.id, conv.id, conv.id]);
    for (const q of ['cursor=abc', 'limit=0', 'purpose=virus', 'conversation_id=nope']) {
      expect((await dan.get(`/storage/v1/files?${q}`)).status, q).toBe(400);
    }
  });

  it("never lets a second user see, link, delete or attach to the first user's files", async () => {
    const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body;
    const file = (
      await upload(ann, Buffer.from('private'), { query: `?conversation_id=${conv.id}` })
    ).body;
    const attempts = [
      await bob.get(`/storage/v1/files/${file.id}`),
      await bob.post(`/storage/v1/files/${file.id}/link`),
      await bob.del(`/storage/v1/files/${file.id}`),
      await upload(bob, Buffer.from('x'), { query: `?conversation_id=${conv.id}` }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([404, 404, 404, 404]);
    for (const r of attempts) expect(JSON.stringify(r.body)).not.toContain('private');
    expect((await bob.get<FilePage>('/storage/v1/files')).body.files).toEqual([]);
    expect(
      (await bob.get<FilePage>(`/storage/v1/files?conversation_id=${conv.id}`)).body.files,
    ).toEqual([]);
    expect((await bob.get<StorageUsage>('/storage/v1/usage')).body.used_bytes).toBe(0);
    expect((await rowsOf(bob.id)).length).toBe(0);
    expect((await ann.get(`/storage/v1/files/${file.id}`)).status).toBe(200);
    expect(existsSync(objectPath(file.id))).toBe(true);
    expect((await ann.get('/storage/v1/files/not-a-uuid')).status).toBe(404);
  });

  it('deletes a file’s bytes, then its record, and its links stop working', async () => {
    const file = (await upload(ann, Buffer.from('bye'), { name: 'bye.txt' })).body;
    const { url } = (await linkFor(ann, file.id)).body;
    expect((await ann.del(`/storage/v1/files/${file.id}`)).status).toBe(204);
    expect(existsSync(objectPath(file.id))).toBe(false);
    expect((await ann.get(`/storage/v1/files/${file.id}`)).status).toBe(404);
    expect((await ann.del(`/storage/v1/files/${file.id}`)).status).toBe(404);
    expect((await download(url)).res.status).toBe(404);
  });

  it('keeps the file when storage cannot delete it, and says so', async () => {
    const file = (await upload(ann, Buffer.from('stuck'), { name: 'stuck.txt' })).body;
    breakStorage();
    try {
      const res = await ann.del(`/storage/v1/files/${file.id}`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: storageMessages.unavailable });
    } finally {
      repairStorage();
    }
    expect((await ann.get(`/storage/v1/files/${file.id}`)).status).toBe(200);
    expect((await ann.del(`/storage/v1/files/${file.id}`)).status).toBe(204);
  });

  it('answers 503 when storage cannot take an upload, keeping no row', async () => {
    const before = (await rowsOf(ann.id)).length;
    breakStorage();
    try {
      const res = await upload(ann, Buffer.from('nowhere'));
      expect(res.status).toBe(503);
      expect(res.body.error).toBe(storageMessages.unavailable);
    } finally {
      repairStorage();
    }
    expect((await rowsOf(ann.id)).length).toBe(before);
  });

  it('lists the storage routes in the OpenAPI document', async () => {
    const doc = await ann.get<{ paths: Record<string, unknown> }>('/rest/v1/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/storage/v1/files',
        '/storage/v1/files/{id}',
        '/storage/v1/files/{id}/link',
        '/storage/v1/object/{id}',
        '/storage/v1/usage',
      ]),
    );
  });
});

describe('deleting a conversation (spec §4)', () => {
  const conversationWithFiles = async (who: Client) => {
    const conv = (await who.post<Conversation>('/rest/v1/conversations', { title: 'With files' }))
      .body;
    await who.post<Message>(`/rest/v1/conversations/${conv.id}/messages`, {
      content: 'see attached',
      role: 'user',
    });
    const attached = [];
    for (const name of ['a.txt', 'b.txt']) {
      attached.push(
        (await upload(who, Buffer.from(name), { name, query: `?conversation_id=${conv.id}` })).body,
      );
    }
    return { conv, attached };
  };

  it('deletes its files (objects, then rows), then its messages, then itself', async () => {
    const { conv, attached } = await conversationWithFiles(ann);
    const unrelated = (await upload(ann, Buffer.from('keep me'), { name: 'keep.txt' })).body;
    expect((await ann.del(`/rest/v1/conversations/${conv.id}`)).status).toBe(204);
    for (const f of attached) {
      expect(existsSync(objectPath(f.id))).toBe(false);
      expect((await ann.get(`/storage/v1/files/${f.id}`)).status).toBe(404);
    }
    expect(await t.db.select().from(messages).where(eq(messages.conversation_id, conv.id))).toEqual(
      [],
    );
    expect((await ann.get(`/rest/v1/conversations/${conv.id}/messages`)).status).toBe(404);
    expect((await ann.get(`/storage/v1/files/${unrelated.id}`)).status).toBe(200);
    expect(existsSync(objectPath(unrelated.id))).toBe(true);
  });

  it('stops and keeps the conversation, its messages and files when a file cannot be deleted', async () => {
    const { conv, attached } = await conversationWithFiles(ann);
    breakStorage();
    try {
      const res = await ann.del(`/rest/v1/conversations/${conv.id}`);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        error: storageMessages.conversationFilesNotDeleted,
        code: 'conversations:files_not_deleted',
      });
    } finally {
      repairStorage();
    }
    const kept = await ann.get<Message[]>(`/rest/v1/conversations/${conv.id}/messages`);
    expect(kept.body.map((m) => m.content)).toEqual(['see attached']);
    for (const f of attached) expect(existsSync(objectPath(f.id))).toBe(true);
    const listed = await ann.get<FilePage>(`/storage/v1/files?conversation_id=${conv.id}`);
    expect(listed.body.files).toHaveLength(2);

    expect((await ann.del(`/rest/v1/conversations/${conv.id}`)).status).toBe(204);
    for (const f of attached) expect(existsSync(objectPath(f.id))).toBe(false);
  });

  it("never deletes another user's conversation or its files", async () => {
    const { conv, attached } = await conversationWithFiles(ann);
    expect((await bob.del(`/rest/v1/conversations/${conv.id}`)).status).toBe(404);
    for (const f of attached) expect(existsSync(objectPath(f.id))).toBe(true);
    expect(
      (await ann.get<FilePage>(`/storage/v1/files?conversation_id=${conv.id}`)).body.files,
    ).toHaveLength(2);
  });
});
